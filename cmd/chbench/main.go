// Command chbench places keys with the algorithms of the chbench suite and
// measures how they move and spread keys; package command (go doc
// ./cmd/chbench/command) lists the commands, and docs/commands.md is the
// full reference.
package main

import (
	"os"

	"github.com/chbench/chbench/cmd/chbench/command"
)

func main() { os.Exit(command.Main(os.Args[1:])) }
