import ArgumentParser

/// `sift completions SHELL`: the shell's completion script for `sift`, from the argument parser.
struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the completion script of bash, zsh or fish for sift.",
        discussion: """
            Examples:
              $ sift completions bash > ~/.local/share/bash-completion/completions/sift
              $ sift completions zsh > ~/.zfunc/_sift      # with fpath+=(~/.zfunc) before compinit
              $ sift completions fish > ~/.config/fish/completions/sift.fish
            """
    )

    /// The shells the argument parser writes completion scripts for.
    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
    }

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "SHELL"))
    var shell: Shell

    func run() throws {
        guard let shell = CompletionShell(rawValue: shell.rawValue) else { throw ExitCode.validationFailure }
        print(SiftCommand.completionScript(for: shell), terminator: "")
    }
}
