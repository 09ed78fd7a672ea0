# svc shell integration for PowerShell: add this line to $PROFILE
#   svc generate integration powershell | Out-String | Invoke-Expression
# `svc login`, `reauthenticate`, `kubeconfig` and `get kubeconfig` then set KUBECONFIG in this shell;
# `svc signout` unsets it when it names a session file. Everything else, and `svc login --shell`
# (an interactive subshell, never evaluated), runs svc as it is.
function svc {
    $exe = Get-Command svc -CommandType Application | Select-Object -First 1
    $evaluate = $false
    if ($args.Count -ge 1 -and @('login', 'signin', 'auth', 'reauthenticate', 'reauth', 'refresh', 'kubeconfig') -contains $args[0]) {
        $evaluate = $true
    }
    if ($args.Count -ge 2 -and $args[0] -eq 'get' -and $args[1] -eq 'kubeconfig') {
        $evaluate = $true
    }
    if ($args.Count -ge 1 -and @('signout', 'logout') -contains $args[0]) {
        & $exe @args
        $code = $LASTEXITCODE
        if ($code -eq 0 -and $env:KUBECONFIG) {
            $tmp = [System.IO.Path]::GetTempPath().TrimEnd('\', '/')
            $dir = [System.IO.Path]::GetDirectoryName($env:KUBECONFIG).TrimEnd('\', '/')
            if ([System.IO.Path]::GetFileName($env:KUBECONFIG) -like 'kubeconfig-*.yaml' -and $dir -eq $tmp) {
                Remove-Item -LiteralPath $env:KUBECONFIG -ErrorAction SilentlyContinue
                Remove-Item Env:KUBECONFIG
            }
        }
        $global:LASTEXITCODE = $code
        return
    }
    foreach ($arg in $args) {
        if (@('--no-eval', '-e', '--help', '-h', '--long', '-l', '--shell') -contains $arg -or $arg -like '--long=*') {
            $evaluate = $false
        }
    }
    if (-not $evaluate) {
        & $exe @args
        return
    }
    $output = & $exe @args --quiet | Out-String
    if ($LASTEXITCODE -ne 0) {
        return
    }
    Invoke-Expression $output
}
