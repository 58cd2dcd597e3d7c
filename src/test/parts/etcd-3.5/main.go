// Command etcd-3.5 is etcd, etcdctl and etcdutl of one etcd release in one
// binary. It runs the command named by the base name of argv[0] (install it
// under, or symlink it as, etcd, etcdctl and etcdutl) or, failing that, the
// command named by its first argument ("etcd-3.5 etcdctl version").
//
// Each command runs exactly as the upstream main package does:
// server/main.go, etcdctl/main.go (ETCDCTL_API=2 or 3) and etcdutl/main.go +
// etcdutl/ctl.go (the latter is a main package, so its root command is copied
// here).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"go.etcd.io/etcd/etcdctl/v3/ctlv2"
	"go.etcd.io/etcd/etcdctl/v3/ctlv3"
	"go.etcd.io/etcd/etcdutl/v3/etcdutl"
	"go.etcd.io/etcd/pkg/v3/cobrautl"
	"go.etcd.io/etcd/server/v3/etcdmain"
)

var commands = map[string]func(){
	"etcd":    func() { etcdmain.Main(os.Args) },
	"etcdctl": etcdctlMain,
	"etcdutl": etcdutlMain,
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
		fmt.Fprintf(os.Stderr, "usage: %s {etcd|etcdctl|etcdutl} [args...] (or call it through a link of that name)\n", name)
		os.Exit(2)
	}
	run()
}

// etcdctl/main.go of the same release.

const apiEnv = "ETCDCTL_API"

func etcdctlMain() {
	apiv := os.Getenv(apiEnv)

	// unset apiEnv to avoid side-effect for future env and flag parsing.
	os.Unsetenv(apiEnv)
	if len(apiv) == 0 || apiv == "3" {
		ctlv3.MustStart()
		return
	}

	if apiv == "2" {
		ctlv2.MustStart()
		return
	}

	fmt.Fprintf(os.Stderr, "unsupported API version: %v\n", apiv)
	os.Exit(1)
}

// etcdutl/main.go and etcdutl/ctl.go of the same release.

func etcdutlMain() {
	if err := etcdutlStart(); err != nil {
		cobrautl.ExitWithError(cobrautl.ExitError, err)
	}
}

func etcdutlStart() error {
	rootCmd := &cobra.Command{
		Use:        "etcdutl",
		Short:      "An administrative command line tool for etcd3.",
		SuggestFor: []string{"etcdutl"},
	}
	rootCmd.PersistentFlags().StringVarP(&etcdutl.OutputFormat, "write-out", "w", "simple", "set the output format (fields, json, protobuf, simple, table)")
	rootCmd.AddCommand(
		etcdutl.NewBackupCommand(),
		etcdutl.NewDefragCommand(),
		etcdutl.NewSnapshotCommand(),
		etcdutl.NewVersionCommand(),
		etcdutl.NewCheckCommand(),
	)
	cobra.EnablePrefixMatching = true
	// Make help just show the usage
	rootCmd.SetHelpTemplate(`{{.UsageString}}`)
	return rootCmd.Execute()
}
