import SiftCLI

SiftCommand.mainWithShortcuts()
