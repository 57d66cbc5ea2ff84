import Foundation
import SiftLanguage
import SiftSQL
import SiftSQLite
import SiftStore

extension SiftSQLFunctions {
    /// `sift_external_data(value, folder, attribute, idPrefix, key)`: the value of a Core Data
    /// binary attribute that allows external storage (``CoreDataExternalData``), from its column
    /// `value`:
    ///
    /// | column | value |
    /// |---|---|
    /// | NULL | NULL |
    /// | a blob whose first byte is 1 | the rest of the blob |
    /// | a blob whose first byte is 2 | the content of the file `folder/<UUID>`, the rest of the blob being the UUID's ASCII text (a NUL after it or not) |
    /// | anything else | itself |
    ///
    /// A file that is missing or cannot be read, and a reference that is not a UUID (`../x`:
    /// never a path outside the folder), fail the statement with a ``StoreError`` naming the
    /// attribute, the object (`idPrefix` + `key`) and the file. Only reads: nothing is written.
    static func registerExternalData(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(SQLRegisteredFunction.externalData.rawValue, argumentCount: 5) { call in
            guard call.type(0) == .blob else { return call.value(0) }
            let stored = call.blob(0)
            switch stored.first {
            case EntityTable.inlineDataMarker?:
                return .blob(Array(stored.dropFirst()))
            case EntityTable.externalDataMarker?:
                let reference = ExternalDataReference(stored.dropFirst(), folder: call.text(1), attribute: call.text(2),
                                                      object: call.text(3) + String(call.int64(4)))
                return .blob(try reference.contents())
            default:
                return .blob(stored)
            }
        }
    }
}

/// A reference to a file of a Core Data store's external data, as a column holds it after the
/// marker byte, and what reading it names when it fails.
struct ExternalDataReference {
    let bytes: ArraySlice<UInt8>
    let folder: String
    /// `Entity.attribute`.
    let attribute: String
    /// The object's ID.
    let object: String

    init(_ bytes: ArraySlice<UInt8>, folder: String, attribute: String, object: String) {
        self.bytes = bytes
        self.folder = folder
        self.attribute = attribute
        self.object = object
    }

    /// The UUID's text: 36 ASCII characters, hex digits in groups of 8-4-4-4-12 joined by `-`,
    /// with or without one NUL after them; nil for anything else.
    var uuid: String? {
        var text = bytes
        if text.last == 0 { text = text.dropLast() }
        guard text.count == 36 else { return nil }
        for (offset, byte) in text.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) else { return nil }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The file's whole content.
    func contents() throws(StoreError) -> [UInt8] {
        let entity = attribute.split(separator: ".", maxSplits: 1).first.map(String.init)
        let key = attribute.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init)
        let subject = "\(attribute) of \(object) is stored in an external file"
        guard let uuid else {
            throw StoreError(.corruptStore, "\(subject), but its reference \(Self.shown(bytes)) is not a UUID: refused (only a file named by a UUID in \(folder) is read)",
                             entity: entity, objectID: ObjectID(object), key: key)
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(uuid).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.fileSystem, "\(subject), \(path), which does not exist: copy the store's .\(Self.storeName(folder))_SUPPORT folder with it",
                             entity: entity, objectID: ObjectID(object), key: key)
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw StoreError(.fileSystem, "\(subject), \(path), which cannot be read (\(reason))",
                             entity: entity, objectID: ObjectID(object), key: key)
        }
    }

    /// The store's name from its folder (`…/.Notes_SUPPORT/_EXTERNAL_DATA` → `Notes`).
    static func storeName(_ folder: String) -> String {
        let support = URL(fileURLWithPath: folder).deletingLastPathComponent().lastPathComponent
        guard support.hasPrefix("."), support.hasSuffix("_SUPPORT") else { return support }
        return String(support.dropFirst().dropLast("_SUPPORT".count))
    }

    /// A reference as text to show: printable ASCII as it is, other bytes as `\xNN`, at most 64
    /// bytes, quoted.
    static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        for byte in bytes.prefix(64) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return "\"" + text + (bytes.count > 64 ? "…" : "") + "\""
    }
}
