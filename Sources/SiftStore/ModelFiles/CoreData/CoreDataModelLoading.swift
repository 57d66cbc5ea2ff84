import Foundation

extension CoreDataModel {
    /// The model a Core Data SQLite store keeps in `Z_MODELCACHE.Z_CONTENT`: `compressed` is that
    /// column's bytes (raw deflate of a keyed archive). A cache that inflates past
    /// `limit` bytes is an error.
    public init(modelCache compressed: Data, name: String = "Model", limit: Int = 64 << 20) throws(CoreDataModelError) {
        let archive = try RawInflate.inflate(compressed, limit: limit)
        self = try CoreDataModelDecoder.decode(KeyedArchive(archive), name: name)
    }

    /// The model in `archive`: a keyed archive of `NSManagedObjectModel`, as a compiled `.mom` file holds.
    public init(archive: Data, name: String = "Model") throws(CoreDataModelError) {
        self = try CoreDataModelDecoder.decode(KeyedArchive(archive), name: name)
    }

    /// The model in Xcode's old binary model file, a `.xcdatamodel` folder's `elements` (a keyed
    /// archive of Xcode's design classes, `XcodeElementsDecoder`).
    public init(xcodeElements data: Data, name: String = "Model") throws(CoreDataModelError) {
        self = try XcodeElementsDecoder.decode(KeyedArchive(data), name: name)
    }

    /// The model of a compiled `.mom` file, or of a `.momd` directory's current version
    /// (`VersionInfo.plist`'s `NSManagedObjectModel_CurrentVersionName`, else its only `.mom`).
    public static func load(_ url: URL) throws(CoreDataModelError) -> CoreDataModel {
        let name = url.deletingPathExtension().lastPathComponent
        var file = url
        if url.pathExtension.lowercased() == "momd" {
            file = try currentVersion(of: url)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CoreDataModelError("\(file.path): cannot read: \(error.localizedDescription)")
        }
        do throws(CoreDataModelError) {
            return try CoreDataModel(archive: data, name: name)
        } catch {
            throw CoreDataModelError("\(file.path): \(error.message)")
        }
    }

    private static func currentVersion(of bundle: URL) throws(CoreDataModelError) -> URL {
        let info = bundle.appendingPathComponent("VersionInfo.plist")
        if let data = try? Data(contentsOf: info) {
            guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let current = plist["NSManagedObjectModel_CurrentVersionName"] as? String else {
                throw CoreDataModelError("\(info.path): names no NSManagedObjectModel_CurrentVersionName")
            }
            guard !current.contains("/"), !current.hasPrefix(".") else {
                throw CoreDataModelError("\(info.path): the current version name '\(current)' is not a file name")
            }
            return bundle.appendingPathComponent(current + ".mom")
        }
        let moms = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []).filter { $0.hasSuffix(".mom") }
        guard moms.count == 1 else {
            throw CoreDataModelError("\(bundle.path): no VersionInfo.plist, and \(moms.count) .mom files (expected one)")
        }
        return bundle.appendingPathComponent(moms[0])
    }
}
