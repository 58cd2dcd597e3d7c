// Command etcd-3.6 is etcd, etcdctl and etcdutl of one etcd release in one
// binary. It runs the command named by the base name of argv[0] (install it
// under, or symlink it as, etcd, etcdctl and etcdutl) or, failing that, the
// command named by its first argument ("etcd-3.6 etcdctl version").
//
// Each command runs exactly as the upstream main package does:
// server/main.go, etcdctl/main.go and etcdutl/main.go + etcdutl/ctl.go
// (the latter is a main package, so its root command is copied here).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"go.etcd.io/etcd/etcdctl/v3/ctlv3"
	"go.etcd.io/etcd/etcdutl/v3/etcdutl"
	"go.etcd.io/etcd/pkg/v3/cobrautl"
	"go.etcd.io/etcd/server/v3/etcdmain"
)

var commands = map[string]func(){
	"etcd":    func() { etcdmain.Main(os.Args) },
	"etcdctl": ctlv3.MustStart,
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
	rootCmd.RegisterFlagCompletionFunc("write-out", func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return []string{"fields", "json", "protobuf", "simple", "table"}, cobra.ShellCompDirectiveDefault
	})
	rootCmd.AddCommand(
		etcdutl.NewDefragCommand(),
		etcdutl.NewSnapshotCommand(),
		etcdutl.NewHashKVCommand(),
		etcdutl.NewVersionCommand(),
		etcdutl.NewCompletionCommand(),
		etcdutl.NewMigrateCommand(),
	)
	cobra.EnablePrefixMatching = true
	// Make help just show the usage
	rootCmd.SetHelpTemplate(`{{.UsageString}}`)
	return rootCmd.Execute()
}
