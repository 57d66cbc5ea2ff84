import SiftCLI

SiftCommand.main()
