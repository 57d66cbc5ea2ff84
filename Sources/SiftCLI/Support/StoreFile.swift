import ArgumentParser
import Foundation
import Sift

/// Opening the store a `--store` option names; the kind follows the extension (`.json` JSON
/// store, `.plist` binary store).
enum StoreFile {
    static func open(_ path: String) throws -> any PersistentStore {
        guard FileManager.default.fileExists(atPath: path) else {
            Output.error("error: no store at \(path) (create one with 'sift import --store \(path) --model MODEL DATA')")
            throw ExitCode(1)
        }
        return try report { () throws(StoreError) in try AtomicStore.open(at: URL(fileURLWithPath: path)) }
    }

    static func create(_ path: String, model: DataModel) throws -> any PersistentStore {
        try report { () throws(StoreError) in try AtomicStore.create(at: URL(fileURLWithPath: path), model: model) }
    }

    static func loadModel(_ path: String) throws -> DataModel {
        do {
            return try ModelFile.load(URL(fileURLWithPath: path))
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }

    /// Runs `body`, printing a store error as `error: ...` and exiting with status 1.
    static func report<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
