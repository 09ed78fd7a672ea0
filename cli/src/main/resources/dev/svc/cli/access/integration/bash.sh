# svc shell integration for {{shell}}: add this line to {{rcfile}}
#   eval "$(command svc generate integration {{shell}})"
# `svc login`, `reauthenticate`, `kubeconfig` and `get kubeconfig` then set KUBECONFIG in this shell;
# `svc signout` unsets it when it names a session file. Everything else, and `svc login --shell`
# (an interactive subshell, never evaluated), runs svc as it is.
svc() {
  local __svc_eval=0 __svc_arg __svc_out __svc_status __svc_tmp
  case "${1-}" in
    login|signin|auth|reauthenticate|reauth|refresh|kubeconfig) __svc_eval=1 ;;
    get) [ "${2-}" = kubeconfig ] && __svc_eval=1 ;;
    signout|logout)
      command svc "$@"
      __svc_status=$?
      if [ "$__svc_status" -eq 0 ] && [ -n "${KUBECONFIG-}" ]; then
        # macOS's TMPDIR ends in a slash; svc writes the session file's path without a double one.
        __svc_tmp="${TMPDIR:-/tmp}"
        __svc_tmp="${__svc_tmp%/}"
        case "$KUBECONFIG" in
          /tmp/kubeconfig-*.yaml|"$__svc_tmp"/kubeconfig-*.yaml)
            rm -f -- "$KUBECONFIG"
            unset KUBECONFIG ;;
        esac
      fi
      return "$__svc_status" ;;
  esac
  if [ "$__svc_eval" -eq 1 ]; then
    for __svc_arg in "$@"; do
      case "$__svc_arg" in
        --no-eval|-e|--help|-h|--long|--long=*|-l|--shell) __svc_eval=0 ;;
      esac
    done
  fi
  if [ "$__svc_eval" -eq 0 ]; then
    command svc "$@"
    return $?
  fi
  __svc_out="$(command svc "$@" --quiet)" || return $?
  eval "$__svc_out"
}
