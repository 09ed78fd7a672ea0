# svc shell integration for fish: add this line to ~/.config/fish/config.fish
#   command svc generate integration fish | source
# `svc login`, `reauthenticate`, `kubeconfig` and `get kubeconfig` then set KUBECONFIG in this shell;
# `svc signout` unsets it when it names a session file. Everything else, and `svc login --shell`
# (an interactive subshell, never evaluated), runs svc as it is.
function svc --description 'svc, setting KUBECONFIG in this shell'
    set -l evaluate 0
    switch "$argv[1]"
        case login signin auth reauthenticate reauth refresh kubeconfig
            set evaluate 1
        case get
            if test "$argv[2]" = kubeconfig
                set evaluate 1
            end
        case signout logout
            command svc $argv
            set -l code $status
            if test $code -eq 0; and set -q KUBECONFIG
                set -l tmp /tmp
                set -q TMPDIR; and set tmp (string trim --right --chars=/ -- $TMPDIR)
                if string match -q -- "/tmp/kubeconfig-*.yaml" $KUBECONFIG; or string match -q -- "$tmp/kubeconfig-*.yaml" $KUBECONFIG
                    rm -f -- $KUBECONFIG
                    set -e KUBECONFIG
                end
            end
            return $code
    end
    for arg in $argv
        switch $arg
            case --no-eval -e --help -h --long '--long=*' -l --shell
                set evaluate 0
        end
    end
    if test $evaluate -eq 0
        command svc $argv
        return $status
    end
    set -l output (command svc $argv --quiet | string collect)
    set -l code $pipestatus[1]
    if test $code -ne 0
        return $code
    end
    printf '%s\n' $output | source
end
