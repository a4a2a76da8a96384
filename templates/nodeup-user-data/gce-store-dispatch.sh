      elif [[ "${url}" == gs://* ]]; then
        gs-get "${url}" "${file}.part" || {
          echo "== Failed to read ${url} with this instance's service account ==" >&2
          continue
        }
