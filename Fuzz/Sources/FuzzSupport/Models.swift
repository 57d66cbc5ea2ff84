import Foundation
import Sift

/// fuzz-models: any bytes as a model file — an Xcode model's `contents` XML when the first
/// byte that is not whitespace is `<`, Sift's model JSON (docs/MODEL-JSON.md) otherwise. A
/// model read is written as model JSON, which reads back to a model that writes the same JSON;
/// both kinds of store are then made for it in memory, and every entity is fetched (and
/// counted) from each.
public enum ModelsHarness {
    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Data(buffer: data)
        let first = data.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        let model: DataModel
        do {
            model = first == UInt8(ascii: "<")
                ? try XcodeModelFormat.read(contents: bytes, name: "Fuzz")
                : try JSONModelFormat.read(bytes, name: "Fuzz")
        } catch {
            _ = error.description
            return
        }
        let json = JSONModelFormat.write(model)
        do {
            let again = try JSONModelFormat.read(Data(json.utf8), name: "Fuzz")
            let rewritten = JSONModelFormat.write(again)
            fuzzCheck(rewritten == json, "the model JSON does not write back the same:\n  first: \(json.prefix(1500))\n  then: \(rewritten.prefix(1500))")
        } catch {
            fuzzFailure("the model JSON written for a model does not read back: \(error)\n  json: \(json.prefix(1500))")
        }

        var stores: [any PersistentStore] = [AtomicStore.inMemory(model: model)]
        if let sql = try? SQLiteStore.inMemory(model: model) { stores.append(sql) }
        for store in stores {
            for entity in model.entities.prefix(32) {
                _ = FuzzObservation.contents(of: entity.name, in: store)
                _ = try? store.count(FetchRequest(entityName: entity.name))
            }
        }
    }
}
