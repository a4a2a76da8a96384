      elif [[ "${url}" == s3://* ]]; then
        s3-get "${url}" "${file}.part" || {
          echo "== Failed to read ${url} with this instance's role ==" >&2
          continue
        }
