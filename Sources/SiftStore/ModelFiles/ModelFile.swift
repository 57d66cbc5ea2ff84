import Foundation

/// Loads a model from a file, choosing the reader by the file's extension:
///
/// | extension | reader |
/// |---|---|
/// | `.json` | ``JSONModelFormat`` (docs/MODEL-JSON.md); the model is named after the file unless it names itself |
/// | `.xcdatamodel` | ``XcodeModelFormat``: the folder's `contents` (or Xcode 3's binary `elements`) |
/// | `.xcdatamodeld` | ``XcodeModelFormat``: the bundle's current version |
/// | `.mom` | ``CoreDataModel``: a compiled model (a keyed archive) |
/// | `.momd` | ``CoreDataModel``: the compiled bundle's current version |
///
/// Errors name the file.
public enum ModelFile {
    /// The extensions ``load(_:)`` accepts.
    public static let acceptedExtensions = ["json", "xcdatamodel", "xcdatamodeld", "mom", "momd"]

    public static func load(_ url: URL) throws(ModelError) -> DataModel {
        // (A JSON model is read as it is: the version hashes `loadCoreData` derives are only
        // for Core Data's layout.)
        if url.pathExtension.lowercased() == "json" { return try loadPlain(url) }
        return try loadCoreData(url).model
    }

    /// Loads a model file as ``load(_:)`` does, with what Core Data's layout needs beside it:
    /// read from Core Data's own archives (`.mom`, `.momd`, Xcode 3's `elements`), everything
    /// they hold, version hashes included; from any other form, what can be derived from the
    /// model (``CoreDataModel/init(deriving:)``).
    public static func loadCoreData(_ url: URL) throws(ModelError) -> CoreDataModel {
        switch url.pathExtension.lowercased() {
        case "xcdatamodel", "xcdatamodeld":
            return try XcodeModelFormat.loadCoreData(url)
        case "mom", "momd":
            do throws(CoreDataModelError) {
                return try CoreDataModel.load(url)
            } catch {
                throw ModelError(error.message)
            }
        default:
            return CoreDataModel(deriving: try loadPlain(url))
        }
    }

    private static func loadPlain(_ url: URL) throws(ModelError) -> DataModel {
        switch url.pathExtension.lowercased() {
        case "json":
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw ModelError("\(url.path): cannot read: \(XcodeModelFormat.describe(error))")
            }
            do throws(ModelError) {
                return try JSONModelFormat.read(data, name: url.deletingPathExtension().lastPathComponent)
            } catch {
                throw ModelError("\(url.path): \(error.message)")
            }
        default:
            let kind = url.pathExtension.isEmpty ? "a file without an extension" : "a .\(url.pathExtension) file"
            throw ModelError("\(url.path): cannot load a model from \(kind); expected a .json model, a .xcdatamodel folder, a .xcdatamodeld bundle, or a compiled .mom or .momd")
        }
    }
}
