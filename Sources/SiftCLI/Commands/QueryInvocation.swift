import ArgumentParser
import Foundation
import Sift

/// One `sift query`: the store, the fetch and how to print it, as plain values (parsed by
/// ``QueryCommand``, or read by ``QuickQuery`` for the simplest command lines).
struct QueryInvocation: Equatable {
    var store: String
    var source: FetchSource
    var readOnly = false
    var output = OutputFormat.json
    var relationships = RelationshipDetail.counts
    var properties: String?
    /// The model of a Core Data store (`--model`).
    var model: String?

    func run() throws {
        var fetch = try source.makeRequest()
        // Objects are read a batch at a time as they are printed (memory stays flat, and an
        // error midway comes after the objects before it).
        if fetch.fetchBatchSize == 0 { fetch.fetchBatchSize = FetchPrinter.batchSize }
        let store = try StoreFile.open(self.store, readOnly: readOnly, model: model)
        let standardOutput = StandardOutput()
        let model = StoreModels.outline(of: store)
        // The objects of an entity without subentities all show the same keys, in one order,
        // so even csv, whose header is every result's keys, prints each as it is read.
        let sameKeys = fetch.resultType == .objects && fetch.sectionNameKeyPath == nil
            && model.entity(named: fetch.entityName)?.entityAndSubentities.count == 1
        var renderer = output.makeRenderer(standardOutput, sameKeys: sameKeys)
        let objectOutput = ObjectOutput(relationships: relationships, properties: try properties.map(ObjectOutput.propertyList))
        // json and jsonl print an object's text, written straight from its values; the other
        // formats read the object's dictionary.
        let writer = output.printsRecordText ? ObjectJSONWriter(objectOutput, model: model) : nil
        var text: [UInt8] = []
        func match(_ object: ManagedObject, position: Int) -> Match {
            guard let writer else { return StoredObjectJSON.match(objectOutput.value(of: object, model: model), position: position) }
            text.removeAll(keepingCapacity: true)
            writer.write(object, to: &text)
            return Match(compactText: text, position: position)
        }
        source.printWarnings(fetch, on: store)
        do {
            try objectOutput.prepare(&fetch, model: model, store: store)
            if fetch.sectionNameKeyPath != nil && fetch.resultType == .objects {
                let sectioned = try store.fetchSections(fetch)
                if let warning = sectioned.warning { Output.error("warning: \(warning)") }
                try FetchedSectionsPrinter.print(sectioned, to: renderer, match: match)
            } else {
                switch try store.execute(fetch) {
                case .objects(let objects):
                    // Objects stream from the store as they are printed; a store that fails
                    // midway (a damaged file) throws here, after the objects before it.
                    var i = 0
                    try objects.forEachObject { object in
                        renderer.write(match(object, position: i))
                        i += 1
                    }
                case .dictionaries(let rows):
                    for (i, row) in rows.enumerated() { renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: row), position: i)) }
                case .objectIDs(let ids):
                    for (i, id) in ids.enumerated() {
                        renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("@id", .string(id.rawValue))])), position: i))
                    }
                case .count(let n):
                    let value = Value.dictionary(ValueDictionary([("count", .int(Int64(n)))]))
                    if output == .json {
                        standardOutput.write(Array("{\"count\": \(n)}\n".utf8))
                        standardOutput.flush()
                        return
                    }
                    renderer.write(StoredObjectJSON.match(value, position: 0))
                }
                renderer.finish()
            }
        } catch {
            // What was printed stays, closed so that it is still valid JSON.
            renderer.abandon()
            standardOutput.endLine()
            standardOutput.flush()
            Output.error("error: \(ErrorText.message(of: error))")
            throw ExitCode(1)
        }
        standardOutput.flush()
    }
}
