import ArgumentParser

/// `--model`, for the commands that read a store: the model of a Core Data store, used instead
/// of the one the store keeps in its cache (or the one guessed from its tables when it keeps
/// none). It must fit the store; for any other store it is an error.
struct CoreDataModelOption: ParsableArguments {
    @Option(name: .customLong("model"),
            help: ArgumentHelp("The model of a Core Data store (.xcdatamodeld, .xcdatamodel, .momd, .mom or model.json), instead of the one it holds.",
                               valueName: "MODEL"))
    var path: String?
}
