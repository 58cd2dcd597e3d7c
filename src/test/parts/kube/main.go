// Command kube is kube-apiserver, kube-controller-manager, kube-scheduler and
// kubectl of one Kubernetes release in one binary. It runs the command named
// by the base name of argv[0] (install it under, or symlink it as, one of
// those names) or, failing that, the command named by its first argument
// ("kube kubectl version --client").
//
// Each command runs exactly as the upstream main package does:
// cmd/kube-apiserver/apiserver.go, cmd/kube-controller-manager/
// controller-manager.go, cmd/kube-scheduler/scheduler.go and
// cmd/kubectl/kubectl.go, with the same blank imports.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	_ "time/tzdata" // for timeZone support in CronJob

	_ "k8s.io/client-go/plugin/pkg/client/auth" // kubectl: client auth plugins
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	_ "k8s.io/component-base/logs/json/register"          // for JSON log format registration
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // load all the prometheus client-go plugins
	_ "k8s.io/component-base/metrics/prometheus/version"  // for version metric registration
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

var commands = map[string]func(){
	"kube-apiserver": func() {
		command := apiserver.NewAPIServerCommand()
		code := cli.Run(command)
		os.Exit(code)
	},
	"kube-controller-manager": func() {
		command := controllermanager.NewControllerManagerCommand()
		code := cli.Run(command)
		os.Exit(code)
	},
	"kube-scheduler": func() {
		command := scheduler.NewSchedulerCommand()
		code := cli.Run(command)
		os.Exit(code)
	},
	"kubectl": func() {
		// As upstream: set the verbosity before the command is built.
		logs.GlogSetter(kubectlcmd.GetLogVerbosity(os.Args)) // nolint:errcheck
		command := kubectlcmd.NewDefaultKubectlCommand()
		if err := cli.RunNoErrOutput(command); err != nil {
			// Pretty-print the error and exit with an error.
			kubectlutil.CheckErr(err)
		}
	},
}

func main() {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	run, ok := commands[name]
	if !ok && len(os.Args) > 1 {
		if run, ok = commands[os.Args[1]]; ok {
			// The command sees itself as argv[0], as if called by that name.
			os.Args = os.Args[1:]
		}
	}
	if !ok {
		fmt.Fprintf(os.Stderr, "usage: %s {kube-apiserver|kube-controller-manager|kube-scheduler|kubectl} [args...] (or call it through a link of that name)\n", name)
		os.Exit(2)
	}
	run()
}
