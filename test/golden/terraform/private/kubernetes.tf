locals {
  bastion_autoscaling_group_ids     = [aws_autoscaling_group.bastions-private-example-com.id]
  bastion_security_group_ids        = [aws_security_group.bastion-private-example-com.id]
  bastions_role_arn                 = aws_iam_role.bastions-private-example-com.arn
  bastions_role_name                = aws_iam_role.bastions-private-example-com.name
  cluster_name                      = "private.example.com"
  master_autoscaling_group_ids      = [aws_autoscaling_group.control-plane-us-east-1a-private-example-com.id, aws_autoscaling_group.control-plane-us-east-1b-private-example-com.id, aws_autoscaling_group.control-plane-us-east-1c-private-example-com.id]
  master_security_group_ids         = [aws_security_group.masters-private-example-com.id]
  masters_role_arn                  = aws_iam_role.masters-private-example-com.arn
  masters_role_name                 = aws_iam_role.masters-private-example-com.name
  node_autoscaling_group_ids        = [aws_autoscaling_group.nodes-us-east-1a-private-example-com.id, aws_autoscaling_group.nodes-us-east-1b-private-example-com.id, aws_autoscaling_group.nodes-us-east-1c-private-example-com.id]
  node_role_arns                    = [aws_iam_role.nodes-nodes-us-east-1a-private-example-com.arn, aws_iam_role.nodes-nodes-us-east-1b-private-example-com.arn, aws_iam_role.nodes-nodes-us-east-1c-private-example-com.arn]
  node_role_names                   = [aws_iam_role.nodes-nodes-us-east-1a-private-example-com.name, aws_iam_role.nodes-nodes-us-east-1b-private-example-com.name, aws_iam_role.nodes-nodes-us-east-1c-private-example-com.name]
  node_security_group_ids           = [aws_security_group.nodes-private-example-com.id]
  node_subnet_ids                   = [aws_subnet.us-east-1a-private-example-com.id, aws_subnet.us-east-1b-private-example-com.id, aws_subnet.us-east-1c-private-example-com.id]
  region                            = "us-east-1"
  route_table_private-us-east-1a_id = aws_route_table.private-us-east-1a-private-example-com.id
  route_table_private-us-east-1b_id = aws_route_table.private-us-east-1b-private-example-com.id
  route_table_private-us-east-1c_id = aws_route_table.private-us-east-1c-private-example-com.id
  route_table_public_id             = aws_route_table.private-example-com.id
  subnet_us-east-1a_id              = aws_subnet.us-east-1a-private-example-com.id
  subnet_us-east-1b_id              = aws_subnet.us-east-1b-private-example-com.id
  subnet_us-east-1c_id              = aws_subnet.us-east-1c-private-example-com.id
  subnet_utility-us-east-1a_id      = aws_subnet.utility-us-east-1a-private-example-com.id
  subnet_utility-us-east-1b_id      = aws_subnet.utility-us-east-1b-private-example-com.id
  subnet_utility-us-east-1c_id      = aws_subnet.utility-us-east-1c-private-example-com.id
  vpc_cidr_block                    = aws_vpc.private-example-com.cidr_block
  vpc_id                            = aws_vpc.private-example-com.id
}

output "bastion_autoscaling_group_ids" {
  value = [aws_autoscaling_group.bastions-private-example-com.id]
}

output "bastion_security_group_ids" {
  value = [aws_security_group.bastion-private-example-com.id]
}

output "bastions_role_arn" {
  value = aws_iam_role.bastions-private-example-com.arn
}

output "bastions_role_name" {
  value = aws_iam_role.bastions-private-example-com.name
}

output "cluster_name" {
  value = "private.example.com"
}

output "master_autoscaling_group_ids" {
  value = [aws_autoscaling_group.control-plane-us-east-1a-private-example-com.id, aws_autoscaling_group.control-plane-us-east-1b-private-example-com.id, aws_autoscaling_group.control-plane-us-east-1c-private-example-com.id]
}

output "master_security_group_ids" {
  value = [aws_security_group.masters-private-example-com.id]
}

output "masters_role_arn" {
  value = aws_iam_role.masters-private-example-com.arn
}

output "masters_role_name" {
  value = aws_iam_role.masters-private-example-com.name
}

output "node_autoscaling_group_ids" {
  value = [aws_autoscaling_group.nodes-us-east-1a-private-example-com.id, aws_autoscaling_group.nodes-us-east-1b-private-example-com.id, aws_autoscaling_group.nodes-us-east-1c-private-example-com.id]
}

output "node_role_arns" {
  value = [aws_iam_role.nodes-nodes-us-east-1a-private-example-com.arn, aws_iam_role.nodes-nodes-us-east-1b-private-example-com.arn, aws_iam_role.nodes-nodes-us-east-1c-private-example-com.arn]
}

output "node_role_names" {
  value = [aws_iam_role.nodes-nodes-us-east-1a-private-example-com.name, aws_iam_role.nodes-nodes-us-east-1b-private-example-com.name, aws_iam_role.nodes-nodes-us-east-1c-private-example-com.name]
}

output "node_security_group_ids" {
  value = [aws_security_group.nodes-private-example-com.id]
}

output "node_subnet_ids" {
  value = [aws_subnet.us-east-1a-private-example-com.id, aws_subnet.us-east-1b-private-example-com.id, aws_subnet.us-east-1c-private-example-com.id]
}

output "region" {
  value = "us-east-1"
}

output "route_table_private-us-east-1a_id" {
  value = aws_route_table.private-us-east-1a-private-example-com.id
}

output "route_table_private-us-east-1b_id" {
  value = aws_route_table.private-us-east-1b-private-example-com.id
}

output "route_table_private-us-east-1c_id" {
  value = aws_route_table.private-us-east-1c-private-example-com.id
}

output "route_table_public_id" {
  value = aws_route_table.private-example-com.id
}

output "subnet_us-east-1a_id" {
  value = aws_subnet.us-east-1a-private-example-com.id
}

output "subnet_us-east-1b_id" {
  value = aws_subnet.us-east-1b-private-example-com.id
}

output "subnet_us-east-1c_id" {
  value = aws_subnet.us-east-1c-private-example-com.id
}

output "subnet_utility-us-east-1a_id" {
  value = aws_subnet.utility-us-east-1a-private-example-com.id
}

output "subnet_utility-us-east-1b_id" {
  value = aws_subnet.utility-us-east-1b-private-example-com.id
}

output "subnet_utility-us-east-1c_id" {
  value = aws_subnet.utility-us-east-1c-private-example-com.id
}

output "vpc_cidr_block" {
  value = aws_vpc.private-example-com.cidr_block
}

output "vpc_id" {
  value = aws_vpc.private-example-com.id
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_autoscaling_group" "bastions-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.bastions-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "bastions.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "bastions.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/bastion"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "bastions"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  target_group_arns   = [aws_lb_target_group.bastion-private-example-c-nc71l4.arn]
  vpc_zone_identifier = [aws_subnet.utility-us-east-1a-private-example-com.id, aws_subnet.utility-us-east-1b-private-example-com.id, aws_subnet.utility-us-east-1c-private-example-com.id]
}

resource "aws_autoscaling_group" "control-plane-us-east-1a-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.control-plane-us-east-1a-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "control-plane-us-east-1a.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "control-plane-us-east-1a.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1a"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/control-plane"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "k8s.io/role/master"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1a"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  target_group_arns   = [aws_lb_target_group.tcp-private-example-com-ba4olc.arn, aws_lb_target_group.kops-controller-private-e-jde7od.arn]
  vpc_zone_identifier = [aws_subnet.us-east-1a-private-example-com.id]
}

resource "aws_autoscaling_group" "control-plane-us-east-1b-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.control-plane-us-east-1b-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "control-plane-us-east-1b.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "control-plane-us-east-1b.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1b"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/control-plane"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "k8s.io/role/master"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1b"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  target_group_arns   = [aws_lb_target_group.tcp-private-example-com-ba4olc.arn, aws_lb_target_group.kops-controller-private-e-jde7od.arn]
  vpc_zone_identifier = [aws_subnet.us-east-1b-private-example-com.id]
}

resource "aws_autoscaling_group" "control-plane-us-east-1c-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.control-plane-us-east-1c-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "control-plane-us-east-1c.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "control-plane-us-east-1c.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1c"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/control-plane"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "k8s.io/role/master"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "control-plane-us-east-1c"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  target_group_arns   = [aws_lb_target_group.tcp-private-example-com-ba4olc.arn, aws_lb_target_group.kops-controller-private-e-jde7od.arn]
  vpc_zone_identifier = [aws_subnet.us-east-1c-private-example-com.id]
}

resource "aws_autoscaling_group" "nodes-us-east-1a-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.nodes-us-east-1a-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "nodes-us-east-1a.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "nodes-us-east-1a.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1a"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/node"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1a"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  vpc_zone_identifier = [aws_subnet.us-east-1a-private-example-com.id]
}

resource "aws_autoscaling_group" "nodes-us-east-1b-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.nodes-us-east-1b-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "nodes-us-east-1b.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "nodes-us-east-1b.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1b"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/node"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1b"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  vpc_zone_identifier = [aws_subnet.us-east-1b-private-example-com.id]
}

resource "aws_autoscaling_group" "nodes-us-east-1c-private-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.nodes-us-east-1c-private-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "nodes-us-east-1c.private.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "private.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "nodes-us-east-1c.private.example.com"
  }
  tag {
    key                 = "aws-node-termination-handler/managed"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1c"
  }
  tag {
    key                 = "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node"
    propagate_at_launch = true
    value               = ""
  }
  tag {
    key                 = "k8s.io/role/node"
    propagate_at_launch = true
    value               = "1"
  }
  tag {
    key                 = "kops.k8s.io/instancegroup"
    propagate_at_launch = true
    value               = "nodes-us-east-1c"
  }
  tag {
    key                 = "kubernetes.io/cluster/private.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  vpc_zone_identifier = [aws_subnet.us-east-1c-private-example-com.id]
}

resource "aws_autoscaling_lifecycle_hook" "bastions-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.bastions-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "bastions-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "control-plane-us-east-1a-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.control-plane-us-east-1a-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "control-plane-us-east-1a-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "control-plane-us-east-1b-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.control-plane-us-east-1b-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "control-plane-us-east-1b-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "control-plane-us-east-1c-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.control-plane-us-east-1c-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "control-plane-us-east-1c-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "nodes-us-east-1a-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.nodes-us-east-1a-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "nodes-us-east-1a-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "nodes-us-east-1b-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.nodes-us-east-1b-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "nodes-us-east-1b-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "nodes-us-east-1c-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.nodes-us-east-1c-private-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "nodes-us-east-1c-NTHLifecycleHook"
}

resource "aws_cloudwatch_event_rule" "private-example-com-ASGLifecycle" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_private.example.com-ASGLifecycle_event_pattern")
  name          = "private.example.com-ASGLifecycle"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com-ASGLifecycle"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "private-example-com-InstanceScheduledChange" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_private.example.com-InstanceScheduledChange_event_pattern")
  name          = "private.example.com-InstanceScheduledChange"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com-InstanceScheduledChange"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "private-example-com-InstanceStateChange" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_private.example.com-InstanceStateChange_event_pattern")
  name          = "private.example.com-InstanceStateChange"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com-InstanceStateChange"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "private-example-com-SpotInterruption" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_private.example.com-SpotInterruption_event_pattern")
  name          = "private.example.com-SpotInterruption"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com-SpotInterruption"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_target" "private-example-com-ASGLifecycle-Target" {
  arn  = aws_sqs_queue.private-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.private-example-com-ASGLifecycle.id
}

resource "aws_cloudwatch_event_target" "private-example-com-InstanceScheduledChange-Target" {
  arn  = aws_sqs_queue.private-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.private-example-com-InstanceScheduledChange.id
}

resource "aws_cloudwatch_event_target" "private-example-com-InstanceStateChange-Target" {
  arn  = aws_sqs_queue.private-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.private-example-com-InstanceStateChange.id
}

resource "aws_cloudwatch_event_target" "private-example-com-SpotInterruption-Target" {
  arn  = aws_sqs_queue.private-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.private-example-com-SpotInterruption.id
}

resource "aws_ebs_volume" "a-etcd-events-private-example-com" {
  availability_zone = "us-east-1a"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "a.etcd-events.private.example.com"
    "k8s.io/etcd/events"                        = "a/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "a-etcd-main-private-example-com" {
  availability_zone = "us-east-1a"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "a.etcd-main.private.example.com"
    "k8s.io/etcd/main"                          = "a/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "b-etcd-events-private-example-com" {
  availability_zone = "us-east-1b"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "b.etcd-events.private.example.com"
    "k8s.io/etcd/events"                        = "b/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "b-etcd-main-private-example-com" {
  availability_zone = "us-east-1b"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "b.etcd-main.private.example.com"
    "k8s.io/etcd/main"                          = "b/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "c-etcd-events-private-example-com" {
  availability_zone = "us-east-1c"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "c.etcd-events.private.example.com"
    "k8s.io/etcd/events"                        = "c/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "c-etcd-main-private-example-com" {
  availability_zone = "us-east-1c"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "c.etcd-main.private.example.com"
    "k8s.io/etcd/main"                          = "c/a,b,c"
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_eip" "us-east-1a-private-example-com" {
  domain = "vpc"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1a.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_eip" "us-east-1b-private-example-com" {
  domain = "vpc"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1b.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_eip" "us-east-1c-private-example-com" {
  domain = "vpc"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1c.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "bastions-private-example-com" {
  name = "bastions.private.example.com"
  role = aws_iam_role.bastions-private-example-com.name
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastions.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "masters-private-example-com" {
  name = "masters.private.example.com"
  role = aws_iam_role.masters-private-example-com.name
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "masters.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-nodes-us-east-1a-private-example-com" {
  name = "nodes-nodes-us-east-1a.private.example.com"
  role = aws_iam_role.nodes-nodes-us-east-1a-private-example-com.name
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1a.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-nodes-us-east-1b-private-example-com" {
  name = "nodes-nodes-us-east-1b.private.example.com"
  role = aws_iam_role.nodes-nodes-us-east-1b-private-example-com.name
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1b.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-nodes-us-east-1c-private-example-com" {
  name = "nodes-nodes-us-east-1c.private.example.com"
  role = aws_iam_role.nodes-nodes-us-east-1c-private-example-com.name
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1c.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role" "bastions-private-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_bastions.private.example.com_policy")
  name               = "bastions.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastions.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role" "masters-private-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_masters.private.example.com_policy")
  name               = "masters.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "masters.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-nodes-us-east-1a-private-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes-nodes-us-east-1a.private.example.com_policy")
  name               = "nodes-nodes-us-east-1a.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1a.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-nodes-us-east-1b-private-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes-nodes-us-east-1b.private.example.com_policy")
  name               = "nodes-nodes-us-east-1b.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1b.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-nodes-us-east-1c-private-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes-nodes-us-east-1c.private.example.com_policy")
  name               = "nodes-nodes-us-east-1c.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-nodes-us-east-1c.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_iam_role_policy" "bastions-private-example-com" {
  name   = "bastions.private.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_bastions.private.example.com_policy")
  role   = aws_iam_role.bastions-private-example-com.name
}

resource "aws_iam_role_policy" "masters-private-example-com" {
  name   = "masters.private.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_masters.private.example.com_policy")
  role   = aws_iam_role.masters-private-example-com.name
}

resource "aws_iam_role_policy" "nodes-nodes-us-east-1a-private-example-com" {
  name   = "nodes-nodes-us-east-1a.private.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes-nodes-us-east-1a.private.example.com_policy")
  role   = aws_iam_role.nodes-nodes-us-east-1a-private-example-com.name
}

resource "aws_iam_role_policy" "nodes-nodes-us-east-1b-private-example-com" {
  name   = "nodes-nodes-us-east-1b.private.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes-nodes-us-east-1b.private.example.com_policy")
  role   = aws_iam_role.nodes-nodes-us-east-1b-private-example-com.name
}

resource "aws_iam_role_policy" "nodes-nodes-us-east-1c-private-example-com" {
  name   = "nodes-nodes-us-east-1c.private.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes-nodes-us-east-1c.private.example.com_policy")
  role   = aws_iam_role.nodes-nodes-us-east-1c-private-example-com.name
}

resource "aws_internet_gateway" "private-example-com" {
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_key_pair" "kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157" {
  key_name   = "kubernetes.private.example.com-c4:a6:ed:9a:a8:89:b9:e2:c3:9c:d6:63:eb:9c:71:57"
  public_key = file("${path.module}/data/aws_key_pair_kubernetes.private.example.com-c4a6ed9aa889b9e2c39cd663eb9c7157_public_key")
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "kubernetes.private.example.com-c4:a6:ed:9a:a8:89:b9:e2:c3:9c:d6:63:eb:9c:71:57"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_launch_template" "bastions-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 32
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.bastions-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "bastions.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                         = "private.example.com"
      "Name"                                      = "bastions.private.example.com"
      "aws-node-termination-handler/managed"      = ""
      "k8s.io/role/bastion"                       = "1"
      "kops.k8s.io/instancegroup"                 = "bastions"
      "kubernetes.io/cluster/private.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                         = "private.example.com"
      "Name"                                      = "bastions.private.example.com"
      "aws-node-termination-handler/managed"      = ""
      "k8s.io/role/bastion"                       = "1"
      "kops.k8s.io/instancegroup"                 = "bastions"
      "kubernetes.io/cluster/private.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                         = "private.example.com"
      "Name"                                      = "bastions.private.example.com"
      "aws-node-termination-handler/managed"      = ""
      "k8s.io/role/bastion"                       = "1"
      "kops.k8s.io/instancegroup"                 = "bastions"
      "kubernetes.io/cluster/private.example.com" = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastions.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/bastion"                       = "1"
    "kops.k8s.io/instancegroup"                 = "bastions"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_security_group_ids = [aws_security_group.bastion-private-example-com.id]
}

resource "aws_launch_template" "control-plane-us-east-1a-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 64
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.masters-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "control-plane-us-east-1a.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "control-plane-us-east-1a.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kops.k8s.io/instancegroup"                 = "control-plane-us-east-1a"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_control-plane-us-east-1a.private.example.com_user_data")
  vpc_security_group_ids = [aws_security_group.masters-private-example-com.id]
}

resource "aws_launch_template" "control-plane-us-east-1b-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 64
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.masters-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "control-plane-us-east-1b.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "control-plane-us-east-1b.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kops.k8s.io/instancegroup"                 = "control-plane-us-east-1b"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_control-plane-us-east-1b.private.example.com_user_data")
  vpc_security_group_ids = [aws_security_group.masters-private-example-com.id]
}

resource "aws_launch_template" "control-plane-us-east-1c-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 64
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.masters-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "control-plane-us-east-1c.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                                                     = "private.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                                             = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "control-plane-us-east-1c.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/control-plane"                 = "1"
    "k8s.io/role/master"                        = "1"
    "kops.k8s.io/instancegroup"                 = "control-plane-us-east-1c"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_control-plane-us-east-1c.private.example.com_user_data")
  vpc_security_group_ids = [aws_security_group.masters-private-example-com.id]
}

resource "aws_launch_template" "nodes-us-east-1a-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 128
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-nodes-us-east-1a-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "nodes-us-east-1a.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1a.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-us-east-1a.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/node"                          = "1"
    "kops.k8s.io/instancegroup"                 = "nodes-us-east-1a"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = base64encode(replace(file("${path.module}/data/aws_launch_template_nodes-us-east-1a.private.example.com_user_data"), "api-load-balancer.kforge.invalid", aws_lb.api-private-example-com.dns_name))
  vpc_security_group_ids = [aws_security_group.nodes-private-example-com.id]
}

resource "aws_launch_template" "nodes-us-east-1b-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 128
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-nodes-us-east-1b-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "nodes-us-east-1b.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1b.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-us-east-1b.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/node"                          = "1"
    "kops.k8s.io/instancegroup"                 = "nodes-us-east-1b"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = base64encode(replace(file("${path.module}/data/aws_launch_template_nodes-us-east-1b.private.example.com_user_data"), "api-load-balancer.kforge.invalid", aws_lb.api-private-example-com.dns_name))
  vpc_security_group_ids = [aws_security_group.nodes-private-example-com.id]
}

resource "aws_launch_template" "nodes-us-east-1c-private-example-com" {
  block_device_mappings {
    device_name = "/dev/sda1"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 128
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-nodes-us-east-1c-private-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-private-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  monitoring {
    enabled = false
  }
  name = "nodes-us-east-1c.private.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                          = "private.example.com"
      "Name"                                                                       = "nodes-us-east-1c.private.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1c"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1c"
      "kubernetes.io/cluster/private.example.com"                                  = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes-us-east-1c.private.example.com"
    "aws-node-termination-handler/managed"      = ""
    "k8s.io/role/node"                          = "1"
    "kops.k8s.io/instancegroup"                 = "nodes-us-east-1c"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  user_data              = base64encode(replace(file("${path.module}/data/aws_launch_template_nodes-us-east-1c.private.example.com_user_data"), "api-load-balancer.kforge.invalid", aws_lb.api-private-example-com.dns_name))
  vpc_security_group_ids = [aws_security_group.nodes-private-example-com.id]
}

resource "aws_lb" "api-private-example-com" {
  enable_cross_zone_load_balancing = false
  internal                         = false
  ip_address_type                  = "ipv4"
  load_balancer_type               = "network"
  name                             = "api-private-example-com-jsr826"
  security_groups                  = [aws_security_group.api-elb-private-example-com.id]
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1a-private-example-com.id
  }
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1b-private-example-com.id
  }
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1c-private-example-com.id
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "api.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_lb" "bastion-private-example-com" {
  enable_cross_zone_load_balancing = false
  internal                         = false
  ip_address_type                  = "ipv4"
  load_balancer_type               = "network"
  name                             = "bastion-private-example-c-nc71l4"
  security_groups                  = [aws_security_group.bastion-elb-private-example-com.id]
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1a-private-example-com.id
  }
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1b-private-example-com.id
  }
  subnet_mapping {
    subnet_id = aws_subnet.utility-us-east-1c-private-example-com.id
  }
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastion.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_lb_listener" "api-private-example-com-3988" {
  default_action {
    target_group_arn = aws_lb_target_group.kops-controller-private-e-jde7od.arn
    type             = "forward"
  }
  load_balancer_arn = aws_lb.api-private-example-com.arn
  port              = 3988
  protocol          = "TCP"
}

resource "aws_lb_listener" "api-private-example-com-443" {
  default_action {
    target_group_arn = aws_lb_target_group.tcp-private-example-com-ba4olc.arn
    type             = "forward"
  }
  load_balancer_arn = aws_lb.api-private-example-com.arn
  port              = 443
  protocol          = "TCP"
}

resource "aws_lb_listener" "bastion-private-example-com-22" {
  default_action {
    target_group_arn = aws_lb_target_group.bastion-private-example-c-nc71l4.arn
    type             = "forward"
  }
  load_balancer_arn = aws_lb.bastion-private-example-com.arn
  port              = 22
  protocol          = "TCP"
}

resource "aws_lb_target_group" "bastion-private-example-c-nc71l4" {
  connection_termination = true
  deregistration_delay   = 30
  health_check {
    healthy_threshold   = 2
    interval            = 10
    protocol            = "TCP"
    unhealthy_threshold = 2
  }
  name     = "bastion-private-example-c-nc71l4"
  port     = 22
  protocol = "TCP"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastion-private-example-c-nc71l4"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  target_type = "instance"
  vpc_id      = aws_vpc.private-example-com.id
}

resource "aws_lb_target_group" "kops-controller-private-e-jde7od" {
  connection_termination = true
  deregistration_delay   = 30
  health_check {
    healthy_threshold   = 2
    interval            = 10
    protocol            = "TCP"
    unhealthy_threshold = 2
  }
  name     = "kops-controller-private-e-jde7od"
  port     = 3988
  protocol = "TCP"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "kops-controller-private-e-jde7od"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  target_type = "instance"
  vpc_id      = aws_vpc.private-example-com.id
}

resource "aws_lb_target_group" "tcp-private-example-com-ba4olc" {
  connection_termination = true
  deregistration_delay   = 30
  health_check {
    healthy_threshold   = 2
    interval            = 10
    protocol            = "TCP"
    unhealthy_threshold = 2
  }
  name     = "tcp-private-example-com-ba4olc"
  port     = 443
  protocol = "TCP"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "tcp-private-example-com-ba4olc"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  target_type = "instance"
  vpc_id      = aws_vpc.private-example-com.id
}

resource "aws_nat_gateway" "us-east-1a-private-example-com" {
  allocation_id = aws_eip.us-east-1a-private-example-com.id
  subnet_id     = aws_subnet.utility-us-east-1a-private-example-com.id
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1a.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_nat_gateway" "us-east-1b-private-example-com" {
  allocation_id = aws_eip.us-east-1b-private-example-com.id
  subnet_id     = aws_subnet.utility-us-east-1b-private-example-com.id
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1b.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_nat_gateway" "us-east-1c-private-example-com" {
  allocation_id = aws_eip.us-east-1c-private-example-com.id
  subnet_id     = aws_subnet.utility-us-east-1c-private-example-com.id
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1c.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_route" "private-us-east-1a-0-0-0-0--0" {
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.us-east-1a-private-example-com.id
  route_table_id         = aws_route_table.private-us-east-1a-private-example-com.id
}

resource "aws_route" "private-us-east-1b-0-0-0-0--0" {
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.us-east-1b-private-example-com.id
  route_table_id         = aws_route_table.private-us-east-1b-private-example-com.id
}

resource "aws_route" "private-us-east-1c-0-0-0-0--0" {
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.us-east-1c-private-example-com.id
  route_table_id         = aws_route_table.private-us-east-1c-private-example-com.id
}

resource "aws_route" "route-0-0-0-0--0" {
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.private-example-com.id
  route_table_id         = aws_route_table.private-example-com.id
}

resource "aws_route_table" "private-example-com" {
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/kops/role"                   = "public"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_route_table" "private-us-east-1a-private-example-com" {
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private-us-east-1a.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/kops/role"                   = "private-us-east-1a"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_route_table" "private-us-east-1b-private-example-com" {
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private-us-east-1b.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/kops/role"                   = "private-us-east-1b"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_route_table" "private-us-east-1c-private-example-com" {
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private-us-east-1c.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/kops/role"                   = "private-us-east-1c"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_route_table_association" "private-us-east-1a-private-example-com" {
  route_table_id = aws_route_table.private-us-east-1a-private-example-com.id
  subnet_id      = aws_subnet.us-east-1a-private-example-com.id
}

resource "aws_route_table_association" "private-us-east-1b-private-example-com" {
  route_table_id = aws_route_table.private-us-east-1b-private-example-com.id
  subnet_id      = aws_subnet.us-east-1b-private-example-com.id
}

resource "aws_route_table_association" "private-us-east-1c-private-example-com" {
  route_table_id = aws_route_table.private-us-east-1c-private-example-com.id
  subnet_id      = aws_subnet.us-east-1c-private-example-com.id
}

resource "aws_route_table_association" "utility-us-east-1a-private-example-com" {
  route_table_id = aws_route_table.private-example-com.id
  subnet_id      = aws_subnet.utility-us-east-1a-private-example-com.id
}

resource "aws_route_table_association" "utility-us-east-1b-private-example-com" {
  route_table_id = aws_route_table.private-example-com.id
  subnet_id      = aws_subnet.utility-us-east-1b-private-example-com.id
}

resource "aws_route_table_association" "utility-us-east-1c-private-example-com" {
  route_table_id = aws_route_table.private-example-com.id
  subnet_id      = aws_subnet.utility-us-east-1c-private-example-com.id
}

resource "aws_security_group" "api-elb-private-example-com" {
  description = "Security group for api ELB"
  name        = "api-elb.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "api-elb.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_security_group" "bastion-elb-private-example-com" {
  description = "Security group for bastion ELB"
  name        = "bastion-elb.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastion-elb.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_security_group" "bastion-private-example-com" {
  description = "Security group for bastion"
  name        = "bastion.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "bastion.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_security_group" "masters-private-example-com" {
  description = "Security group for masters"
  name        = "masters.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "masters.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_security_group" "nodes-private-example-com" {
  description = "Security group for nodes"
  name        = "nodes.private.example.com"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "nodes.private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_security_group_rule" "from-0-0-0-0--0-ingress-tcp-22to22-bastion-elb-private-example-com" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-0-0-0-0--0-ingress-tcp-443to443-api-elb-private-example-com" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 443
  protocol          = "tcp"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = 443
  type              = "ingress"
}

resource "aws_security_group_rule" "from-172-20-0-0--22-ingress-tcp-22to22-bastion-elb-private-example-com" {
  cidr_blocks       = ["172.20.0.0/22"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-172-20-4-0--22-ingress-tcp-22to22-bastion-elb-private-example-com" {
  cidr_blocks       = ["172.20.4.0/22"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-172-20-8-0--22-ingress-tcp-22to22-bastion-elb-private-example-com" {
  cidr_blocks       = ["172.20.8.0/22"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-__--0-ingress-tcp-22to22-bastion-elb-private-example-com" {
  from_port         = 22
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "tcp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-__--0-ingress-tcp-443to443-api-elb-private-example-com" {
  from_port         = 443
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "tcp"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = 443
  type              = "ingress"
}

resource "aws_security_group_rule" "from-api-elb-private-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-api-elb-private-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-bastion-elb-private-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-bastion-elb-private-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-bastion-private-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.bastion-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-bastion-private-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.bastion-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-bastion-private-example-com-ingress-tcp-22to22-masters-private-example-com" {
  from_port                = 22
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.bastion-private-example-com.id
  to_port                  = 22
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-bastion-private-example-com-ingress-tcp-22to22-nodes-private-example-com" {
  from_port                = 22
  protocol                 = "tcp"
  security_group_id        = aws_security_group.nodes-private-example-com.id
  source_security_group_id = aws_security_group.bastion-private-example-com.id
  to_port                  = 22
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-masters-private-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.masters-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-masters-private-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.masters-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-masters-private-example-com-ingress-all-0to0-masters-private-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.masters-private-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-masters-private-example-com-ingress-all-0to0-nodes-private-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.nodes-private-example-com.id
  source_security_group_id = aws_security_group.masters-private-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.nodes-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.nodes-private-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-4-0to0-masters-private-example-com" {
  from_port                = 0
  protocol                 = "4"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-all-0to0-nodes-private-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.nodes-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-tcp-1to2379-masters-private-example-com" {
  from_port                = 1
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 2379
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-tcp-2383to4000-masters-private-example-com" {
  from_port                = 2383
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 4000
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-tcp-4003to65535-masters-private-example-com" {
  from_port                = 4003
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 65535
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-private-example-com-ingress-udp-1to65535-masters-private-example-com" {
  from_port                = 1
  protocol                 = "udp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 65535
  type                     = "ingress"
}

resource "aws_security_group_rule" "https-elb-to-master" {
  from_port                = 443
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port                  = 443
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-from-bastion" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.bastion-elb-private-example-com.id
  source_security_group_id = aws_security_group.bastion-private-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-api-elb-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-cp-to-elb" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.api-elb-private-example-com.id
  source_security_group_id = aws_security_group.masters-private-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-elb-to-cp" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-ssh-nlb-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-ssh-nlb-172-20-0-0--22" {
  cidr_blocks       = ["172.20.0.0/22"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-ssh-nlb-172-20-4-0--22" {
  cidr_blocks       = ["172.20.4.0/22"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-ssh-nlb-172-20-8-0--22" {
  cidr_blocks       = ["172.20.8.0/22"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-to-bastion" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.bastion-private-example-com.id
  source_security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmpv6-pmtu-api-elb-__--0" {
  from_port         = -1
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "icmpv6"
  security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port           = -1
  type              = "ingress"
}

resource "aws_security_group_rule" "icmpv6-pmtu-ssh-nlb-__--0" {
  from_port         = -1
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "icmpv6"
  security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port           = -1
  type              = "ingress"
}

resource "aws_security_group_rule" "kops-controller-elb-to-cp" {
  from_port                = 3988
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-private-example-com.id
  source_security_group_id = aws_security_group.api-elb-private-example-com.id
  to_port                  = 3988
  type                     = "ingress"
}

resource "aws_security_group_rule" "node-to-elb" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.api-elb-private-example-com.id
  source_security_group_id = aws_security_group.nodes-private-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "ssh-to-bastion" {
  from_port                = 22
  protocol                 = "tcp"
  security_group_id        = aws_security_group.bastion-private-example-com.id
  source_security_group_id = aws_security_group.bastion-elb-private-example-com.id
  to_port                  = 22
  type                     = "ingress"
}

resource "aws_sqs_queue" "private-example-com-nth" {
  message_retention_seconds = 300
  name                      = "private-example-com-nth"
  policy                    = file("${path.module}/data/aws_sqs_queue_private-example-com-nth_policy")
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private-example-com-nth"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

resource "aws_subnet" "us-east-1a-private-example-com" {
  availability_zone = "us-east-1a"
  cidr_block        = "172.20.32.0/19"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1a.private.example.com"
    "SubnetType"                                = "Private"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/internal-elb"           = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_subnet" "us-east-1b-private-example-com" {
  availability_zone = "us-east-1b"
  cidr_block        = "172.20.64.0/19"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1b.private.example.com"
    "SubnetType"                                = "Private"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/internal-elb"           = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_subnet" "us-east-1c-private-example-com" {
  availability_zone = "us-east-1c"
  cidr_block        = "172.20.96.0/19"
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "us-east-1c.private.example.com"
    "SubnetType"                                = "Private"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/internal-elb"           = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_subnet" "utility-us-east-1a-private-example-com" {
  availability_zone       = "us-east-1a"
  cidr_block              = "172.20.0.0/22"
  map_public_ip_on_launch = true
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "utility-us-east-1a.private.example.com"
    "SubnetType"                                = "Utility"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/elb"                    = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_subnet" "utility-us-east-1b-private-example-com" {
  availability_zone       = "us-east-1b"
  cidr_block              = "172.20.4.0/22"
  map_public_ip_on_launch = true
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "utility-us-east-1b.private.example.com"
    "SubnetType"                                = "Utility"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/elb"                    = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_subnet" "utility-us-east-1c-private-example-com" {
  availability_zone       = "us-east-1c"
  cidr_block              = "172.20.8.0/22"
  map_public_ip_on_launch = true
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "utility-us-east-1c.private.example.com"
    "SubnetType"                                = "Utility"
    "kubernetes.io/cluster/private.example.com" = "owned"
    "kubernetes.io/role/elb"                    = "1"
  }
  vpc_id = aws_vpc.private-example-com.id
}

resource "aws_vpc" "private-example-com" {
  cidr_block           = "172.20.0.0/16"
  enable_dns_hostnames = true
  enable_dns_support   = true
  tags = {
    "KubernetesCluster"                         = "private.example.com"
    "Name"                                      = "private.example.com"
    "kubernetes.io/cluster/private.example.com" = "owned"
  }
}

terraform {
  required_providers {
    aws = {
      "source"  = "hashicorp/aws"
      "version" = ">= 5.0.0"
    }
  }
  required_version = ">= 0.15.0"
}
