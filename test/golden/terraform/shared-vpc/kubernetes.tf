locals {
  cluster_name                 = "shared-vpc.example.com"
  master_autoscaling_group_ids = [aws_autoscaling_group.control-plane-us-east-1a-shared-vpc-example-com.id]
  master_security_group_ids    = [aws_security_group.masters-shared-vpc-example-com.id]
  masters_role_arn             = aws_iam_role.masters-shared-vpc-example-com.arn
  masters_role_name            = aws_iam_role.masters-shared-vpc-example-com.name
  node_autoscaling_group_ids   = [aws_autoscaling_group.nodes-us-east-1a-shared-vpc-example-com.id, aws_autoscaling_group.nodes-us-east-1b-shared-vpc-example-com.id]
  node_role_arns               = [aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.arn, aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.arn]
  node_role_names              = [aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.name, aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.name]
  node_security_group_ids      = [aws_security_group.nodes-shared-vpc-example-com.id]
  node_subnet_ids              = ["subnet-12345678", "subnet-abcdef12"]
  region                       = "us-east-1"
  subnet_ids                   = ["subnet-12345678", "subnet-abcdef12"]
  subnet_us-east-1a_id         = "subnet-12345678"
  subnet_us-east-1b_id         = "subnet-abcdef12"
  vpc_cidr_block               = "10.0.0.0/16"
  vpc_id                       = "vpc-12345678"
}

output "cluster_name" {
  value = "shared-vpc.example.com"
}

output "master_autoscaling_group_ids" {
  value = [aws_autoscaling_group.control-plane-us-east-1a-shared-vpc-example-com.id]
}

output "master_security_group_ids" {
  value = [aws_security_group.masters-shared-vpc-example-com.id]
}

output "masters_role_arn" {
  value = aws_iam_role.masters-shared-vpc-example-com.arn
}

output "masters_role_name" {
  value = aws_iam_role.masters-shared-vpc-example-com.name
}

output "node_autoscaling_group_ids" {
  value = [aws_autoscaling_group.nodes-us-east-1a-shared-vpc-example-com.id, aws_autoscaling_group.nodes-us-east-1b-shared-vpc-example-com.id]
}

output "node_role_arns" {
  value = [aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.arn, aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.arn]
}

output "node_role_names" {
  value = [aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.name, aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.name]
}

output "node_security_group_ids" {
  value = [aws_security_group.nodes-shared-vpc-example-com.id]
}

output "node_subnet_ids" {
  value = ["subnet-12345678", "subnet-abcdef12"]
}

output "region" {
  value = "us-east-1"
}

output "subnet_ids" {
  value = ["subnet-12345678", "subnet-abcdef12"]
}

output "subnet_us-east-1a_id" {
  value = "subnet-12345678"
}

output "subnet_us-east-1b_id" {
  value = "subnet-abcdef12"
}

output "vpc_cidr_block" {
  value = "10.0.0.0/16"
}

output "vpc_id" {
  value = "vpc-12345678"
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_autoscaling_group" "control-plane-us-east-1a-shared-vpc-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.control-plane-us-east-1a-shared-vpc-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "control-plane-us-east-1a.shared-vpc.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "shared-vpc.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "control-plane-us-east-1a.shared-vpc.example.com"
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
    key                 = "kubernetes.io/cluster/shared-vpc.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  target_group_arns   = [aws_lb_target_group.tcp-shared-vpc-example-co-ckrql4.arn, aws_lb_target_group.kops-controller-shared-vp-au3bk2.arn]
  vpc_zone_identifier = ["subnet-12345678"]
}

resource "aws_autoscaling_group" "nodes-us-east-1a-shared-vpc-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.nodes-us-east-1a-shared-vpc-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "nodes-us-east-1a.shared-vpc.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "shared-vpc.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "nodes-us-east-1a.shared-vpc.example.com"
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
    key                 = "kubernetes.io/cluster/shared-vpc.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  vpc_zone_identifier = ["subnet-12345678"]
}

resource "aws_autoscaling_group" "nodes-us-east-1b-shared-vpc-example-com" {
  enabled_metrics = ["GroupDesiredCapacity", "GroupInServiceInstances", "GroupMaxSize", "GroupMinSize", "GroupPendingInstances", "GroupStandbyInstances", "GroupTerminatingInstances", "GroupTotalInstances"]
  launch_template {
    id      = aws_launch_template.nodes-us-east-1b-shared-vpc-example-com.id
    version = "$Latest"
  }
  max_instance_lifetime = 0
  max_size              = 1
  metrics_granularity   = "1Minute"
  min_size              = 1
  name                  = "nodes-us-east-1b.shared-vpc.example.com"
  protect_from_scale_in = false
  tag {
    key                 = "KubernetesCluster"
    propagate_at_launch = true
    value               = "shared-vpc.example.com"
  }
  tag {
    key                 = "Name"
    propagate_at_launch = true
    value               = "nodes-us-east-1b.shared-vpc.example.com"
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
    key                 = "kubernetes.io/cluster/shared-vpc.example.com"
    propagate_at_launch = true
    value               = "owned"
  }
  vpc_zone_identifier = ["subnet-abcdef12"]
}

resource "aws_autoscaling_lifecycle_hook" "control-plane-us-east-1a-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.control-plane-us-east-1a-shared-vpc-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "control-plane-us-east-1a-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "nodes-us-east-1a-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.nodes-us-east-1a-shared-vpc-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "nodes-us-east-1a-NTHLifecycleHook"
}

resource "aws_autoscaling_lifecycle_hook" "nodes-us-east-1b-NTHLifecycleHook" {
  autoscaling_group_name = aws_autoscaling_group.nodes-us-east-1b-shared-vpc-example-com.id
  default_result         = "CONTINUE"
  heartbeat_timeout      = 300
  lifecycle_transition   = "autoscaling:EC2_INSTANCE_TERMINATING"
  name                   = "nodes-us-east-1b-NTHLifecycleHook"
}

resource "aws_cloudwatch_event_rule" "shared-vpc-example-com-ASGLifecycle" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_shared-vpc.example.com-ASGLifecycle_event_pattern")
  name          = "shared-vpc.example.com-ASGLifecycle"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "shared-vpc.example.com-ASGLifecycle"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "shared-vpc-example-com-InstanceScheduledChange" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_shared-vpc.example.com-InstanceScheduledChange_event_pattern")
  name          = "shared-vpc.example.com-InstanceScheduledChange"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "shared-vpc.example.com-InstanceScheduledChange"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "shared-vpc-example-com-InstanceStateChange" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_shared-vpc.example.com-InstanceStateChange_event_pattern")
  name          = "shared-vpc.example.com-InstanceStateChange"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "shared-vpc.example.com-InstanceStateChange"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_rule" "shared-vpc-example-com-SpotInterruption" {
  event_pattern = file("${path.module}/data/aws_cloudwatch_event_rule_shared-vpc.example.com-SpotInterruption_event_pattern")
  name          = "shared-vpc.example.com-SpotInterruption"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "shared-vpc.example.com-SpotInterruption"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_cloudwatch_event_target" "shared-vpc-example-com-ASGLifecycle-Target" {
  arn  = aws_sqs_queue.shared-vpc-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.shared-vpc-example-com-ASGLifecycle.id
}

resource "aws_cloudwatch_event_target" "shared-vpc-example-com-InstanceScheduledChange-Target" {
  arn  = aws_sqs_queue.shared-vpc-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.shared-vpc-example-com-InstanceScheduledChange.id
}

resource "aws_cloudwatch_event_target" "shared-vpc-example-com-InstanceStateChange-Target" {
  arn  = aws_sqs_queue.shared-vpc-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.shared-vpc-example-com-InstanceStateChange.id
}

resource "aws_cloudwatch_event_target" "shared-vpc-example-com-SpotInterruption-Target" {
  arn  = aws_sqs_queue.shared-vpc-example-com-nth.arn
  rule = aws_cloudwatch_event_rule.shared-vpc-example-com-SpotInterruption.id
}

resource "aws_ebs_volume" "a-etcd-events-shared-vpc-example-com" {
  availability_zone = "us-east-1a"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "a.etcd-events.shared-vpc.example.com"
    "k8s.io/etcd/events"                           = "a/a"
    "k8s.io/role/control-plane"                    = "1"
    "k8s.io/role/master"                           = "1"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_ebs_volume" "a-etcd-main-shared-vpc-example-com" {
  availability_zone = "us-east-1a"
  encrypted         = true
  size              = 20
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "a.etcd-main.shared-vpc.example.com"
    "k8s.io/etcd/main"                             = "a/a"
    "k8s.io/role/control-plane"                    = "1"
    "k8s.io/role/master"                           = "1"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  type = "gp3"
}

resource "aws_iam_instance_profile" "masters-shared-vpc-example-com" {
  name = "masters.shared-vpc.example.com"
  role = aws_iam_role.masters-shared-vpc-example-com.name
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "masters.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-nodes-us-east-1a-shared-vpc-example-com" {
  name = "nodes-nodes-us-east-1a.shared-vpc.example.com"
  role = aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.name
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-nodes-us-east-1a.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-nodes-us-east-1b-shared-vpc-example-com" {
  name = "nodes-nodes-us-east-1b.shared-vpc.example.com"
  role = aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.name
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-nodes-us-east-1b.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_role" "masters-shared-vpc-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_masters.shared-vpc.example.com_policy")
  name               = "masters.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "masters.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-nodes-us-east-1a-shared-vpc-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes-nodes-us-east-1a.shared-vpc.example.com_policy")
  name               = "nodes-nodes-us-east-1a.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-nodes-us-east-1a.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-nodes-us-east-1b-shared-vpc-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes-nodes-us-east-1b.shared-vpc.example.com_policy")
  name               = "nodes-nodes-us-east-1b.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-nodes-us-east-1b.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_iam_role_policy" "masters-shared-vpc-example-com" {
  name   = "masters.shared-vpc.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_masters.shared-vpc.example.com_policy")
  role   = aws_iam_role.masters-shared-vpc-example-com.name
}

resource "aws_iam_role_policy" "nodes-nodes-us-east-1a-shared-vpc-example-com" {
  name   = "nodes-nodes-us-east-1a.shared-vpc.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes-nodes-us-east-1a.shared-vpc.example.com_policy")
  role   = aws_iam_role.nodes-nodes-us-east-1a-shared-vpc-example-com.name
}

resource "aws_iam_role_policy" "nodes-nodes-us-east-1b-shared-vpc-example-com" {
  name   = "nodes-nodes-us-east-1b.shared-vpc.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes-nodes-us-east-1b.shared-vpc.example.com_policy")
  role   = aws_iam_role.nodes-nodes-us-east-1b-shared-vpc-example-com.name
}

resource "aws_key_pair" "kubernetes-shared-vpc-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157" {
  key_name   = "kubernetes.shared-vpc.example.com-c4:a6:ed:9a:a8:89:b9:e2:c3:9c:d6:63:eb:9c:71:57"
  public_key = file("${path.module}/data/aws_key_pair_kubernetes.shared-vpc.example.com-c4a6ed9aa889b9e2c39cd663eb9c7157_public_key")
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "kubernetes.shared-vpc.example.com-c4:a6:ed:9a:a8:89:b9:e2:c3:9c:d6:63:eb:9c:71:57"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_launch_template" "control-plane-us-east-1a-shared-vpc-example-com" {
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
    name = aws_iam_instance_profile.masters-shared-vpc-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-shared-vpc-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
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
  name = "control-plane-us-east-1a.shared-vpc.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                                                     = "shared-vpc.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                                                          = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                                                     = "shared-vpc.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                                                          = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                                                     = "shared-vpc.example.com"
      "Name"                                                                                                  = "control-plane-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                                                  = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"                               = "control-plane-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/control-plane"                   = ""
      "k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/exclude-from-external-load-balancers" = ""
      "k8s.io/role/control-plane"                                                                             = "1"
      "k8s.io/role/master"                                                                                    = "1"
      "kops.k8s.io/instancegroup"                                                                             = "control-plane-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                                                          = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "control-plane-us-east-1a.shared-vpc.example.com"
    "aws-node-termination-handler/managed"         = ""
    "k8s.io/role/control-plane"                    = "1"
    "k8s.io/role/master"                           = "1"
    "kops.k8s.io/instancegroup"                    = "control-plane-us-east-1a"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_control-plane-us-east-1a.shared-vpc.example.com_user_data")
  vpc_security_group_ids = [aws_security_group.masters-shared-vpc-example-com.id]
}

resource "aws_launch_template" "nodes-us-east-1a-shared-vpc-example-com" {
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
    name = aws_iam_instance_profile.nodes-nodes-us-east-1a-shared-vpc-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-shared-vpc-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
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
  name = "nodes-us-east-1a.shared-vpc.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1a.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1a"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1a"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-us-east-1a.shared-vpc.example.com"
    "aws-node-termination-handler/managed"         = ""
    "k8s.io/role/node"                             = "1"
    "kops.k8s.io/instancegroup"                    = "nodes-us-east-1a"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  user_data              = base64encode(replace(file("${path.module}/data/aws_launch_template_nodes-us-east-1a.shared-vpc.example.com_user_data"), "api-load-balancer.kforge.invalid", aws_lb.api-shared-vpc-example-com.dns_name))
  vpc_security_group_ids = [aws_security_group.nodes-shared-vpc-example-com.id]
}

resource "aws_launch_template" "nodes-us-east-1b-shared-vpc-example-com" {
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
    name = aws_iam_instance_profile.nodes-nodes-us-east-1b-shared-vpc-example-com.id
  }
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.medium"
  key_name      = aws_key_pair.kubernetes-shared-vpc-example-com-c4a6ed9aa889b9e2c39cd663eb9c7157.id
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
  name = "nodes-us-east-1b.shared-vpc.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1b.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1b.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      "KubernetesCluster"                                                          = "shared-vpc.example.com"
      "Name"                                                                       = "nodes-us-east-1b.shared-vpc.example.com"
      "aws-node-termination-handler/managed"                                       = ""
      "k8s.io/cluster-autoscaler/node-template/label/kops.k8s.io/instancegroup"    = "nodes-us-east-1b"
      "k8s.io/cluster-autoscaler/node-template/label/node-role.kubernetes.io/node" = ""
      "k8s.io/role/node"                                                           = "1"
      "kops.k8s.io/instancegroup"                                                  = "nodes-us-east-1b"
      "kubernetes.io/cluster/shared-vpc.example.com"                               = "owned"
    }
  }
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes-us-east-1b.shared-vpc.example.com"
    "aws-node-termination-handler/managed"         = ""
    "k8s.io/role/node"                             = "1"
    "kops.k8s.io/instancegroup"                    = "nodes-us-east-1b"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  user_data              = base64encode(replace(file("${path.module}/data/aws_launch_template_nodes-us-east-1b.shared-vpc.example.com_user_data"), "api-load-balancer.kforge.invalid", aws_lb.api-shared-vpc-example-com.dns_name))
  vpc_security_group_ids = [aws_security_group.nodes-shared-vpc-example-com.id]
}

resource "aws_lb" "api-shared-vpc-example-com" {
  enable_cross_zone_load_balancing = false
  internal                         = false
  ip_address_type                  = "ipv4"
  load_balancer_type               = "network"
  name                             = "api-shared-vpc-example-co-72ngfi"
  security_groups                  = [aws_security_group.api-elb-shared-vpc-example-com.id]
  subnet_mapping {
    subnet_id = "subnet-12345678"
  }
  subnet_mapping {
    subnet_id = "subnet-abcdef12"
  }
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "api.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
}

resource "aws_lb_listener" "api-shared-vpc-example-com-3988" {
  default_action {
    target_group_arn = aws_lb_target_group.kops-controller-shared-vp-au3bk2.arn
    type             = "forward"
  }
  load_balancer_arn = aws_lb.api-shared-vpc-example-com.arn
  port              = 3988
  protocol          = "TCP"
}

resource "aws_lb_listener" "api-shared-vpc-example-com-443" {
  default_action {
    target_group_arn = aws_lb_target_group.tcp-shared-vpc-example-co-ckrql4.arn
    type             = "forward"
  }
  load_balancer_arn = aws_lb.api-shared-vpc-example-com.arn
  port              = 443
  protocol          = "TCP"
}

resource "aws_lb_target_group" "kops-controller-shared-vp-au3bk2" {
  connection_termination = true
  deregistration_delay   = 30
  health_check {
    healthy_threshold   = 2
    interval            = 10
    protocol            = "TCP"
    unhealthy_threshold = 2
  }
  name     = "kops-controller-shared-vp-au3bk2"
  port     = 3988
  protocol = "TCP"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "kops-controller-shared-vp-au3bk2"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  target_type = "instance"
  vpc_id      = "vpc-12345678"
}

resource "aws_lb_target_group" "tcp-shared-vpc-example-co-ckrql4" {
  connection_termination = true
  deregistration_delay   = 30
  health_check {
    healthy_threshold   = 2
    interval            = 10
    protocol            = "TCP"
    unhealthy_threshold = 2
  }
  name     = "tcp-shared-vpc-example-co-ckrql4"
  port     = 443
  protocol = "TCP"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "tcp-shared-vpc-example-co-ckrql4"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  target_type = "instance"
  vpc_id      = "vpc-12345678"
}

resource "aws_security_group" "api-elb-shared-vpc-example-com" {
  description = "Security group for api ELB"
  name        = "api-elb.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "api-elb.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  vpc_id = "vpc-12345678"
}

resource "aws_security_group" "masters-shared-vpc-example-com" {
  description = "Security group for masters"
  name        = "masters.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "masters.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  vpc_id = "vpc-12345678"
}

resource "aws_security_group" "nodes-shared-vpc-example-com" {
  description = "Security group for nodes"
  name        = "nodes.shared-vpc.example.com"
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "nodes.shared-vpc.example.com"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
  }
  vpc_id = "vpc-12345678"
}

resource "aws_security_group_rule" "from-0-0-0-0--0-ingress-tcp-22to22-masters-shared-vpc-example-com" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-0-0-0-0--0-ingress-tcp-22to22-nodes-shared-vpc-example-com" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 22
  protocol          = "tcp"
  security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-0-0-0-0--0-ingress-tcp-443to443-api-elb-shared-vpc-example-com" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 443
  protocol          = "tcp"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = 443
  type              = "ingress"
}

resource "aws_security_group_rule" "from-__--0-ingress-tcp-22to22-masters-shared-vpc-example-com" {
  from_port         = 22
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "tcp"
  security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-__--0-ingress-tcp-22to22-nodes-shared-vpc-example-com" {
  from_port         = 22
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "tcp"
  security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port           = 22
  type              = "ingress"
}

resource "aws_security_group_rule" "from-__--0-ingress-tcp-443to443-api-elb-shared-vpc-example-com" {
  from_port         = 443
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "tcp"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = 443
  type              = "ingress"
}

resource "aws_security_group_rule" "from-api-elb-shared-vpc-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-api-elb-shared-vpc-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-masters-shared-vpc-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-masters-shared-vpc-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-masters-shared-vpc-example-com-ingress-all-0to0-masters-shared-vpc-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-masters-shared-vpc-example-com-ingress-all-0to0-nodes-shared-vpc-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.nodes-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-egress-all-0to0-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 0
  protocol          = "-1"
  security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-egress-all-0to0-__--0" {
  from_port         = 0
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "-1"
  security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port           = 0
  type              = "egress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-ingress-all-0to0-nodes-shared-vpc-example-com" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.nodes-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-ingress-tcp-1to2379-masters-shared-vpc-example-com" {
  from_port                = 1
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 2379
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-ingress-tcp-2383to4000-masters-shared-vpc-example-com" {
  from_port                = 2383
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 4000
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-ingress-tcp-4003to65535-masters-shared-vpc-example-com" {
  from_port                = 4003
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 65535
  type                     = "ingress"
}

resource "aws_security_group_rule" "from-nodes-shared-vpc-example-com-ingress-udp-1to65535-masters-shared-vpc-example-com" {
  from_port                = 1
  protocol                 = "udp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 65535
  type                     = "ingress"
}

resource "aws_security_group_rule" "https-elb-to-master" {
  from_port                = 443
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port                  = 443
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-api-elb-0-0-0-0--0" {
  cidr_blocks       = ["0.0.0.0/0"]
  from_port         = 3
  protocol          = "icmp"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = 4
  type              = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-cp-to-elb" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.api-elb-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.masters-shared-vpc-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmp-pmtu-elb-to-cp" {
  from_port                = 3
  protocol                 = "icmp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port                  = 4
  type                     = "ingress"
}

resource "aws_security_group_rule" "icmpv6-pmtu-api-elb-__--0" {
  from_port         = -1
  ipv6_cidr_blocks  = ["::/0"]
  protocol          = "icmpv6"
  security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port           = -1
  type              = "ingress"
}

resource "aws_security_group_rule" "kops-controller-elb-to-cp" {
  from_port                = 3988
  protocol                 = "tcp"
  security_group_id        = aws_security_group.masters-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.api-elb-shared-vpc-example-com.id
  to_port                  = 3988
  type                     = "ingress"
}

resource "aws_security_group_rule" "node-to-elb" {
  from_port                = 0
  protocol                 = "-1"
  security_group_id        = aws_security_group.api-elb-shared-vpc-example-com.id
  source_security_group_id = aws_security_group.nodes-shared-vpc-example-com.id
  to_port                  = 0
  type                     = "ingress"
}

resource "aws_sqs_queue" "shared-vpc-example-com-nth" {
  message_retention_seconds = 300
  name                      = "shared-vpc-example-com-nth"
  policy                    = file("${path.module}/data/aws_sqs_queue_shared-vpc-example-com-nth_policy")
  tags = {
    "KubernetesCluster"                            = "shared-vpc.example.com"
    "Name"                                         = "shared-vpc-example-com-nth"
    "kubernetes.io/cluster/shared-vpc.example.com" = "owned"
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
