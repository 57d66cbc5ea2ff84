import Foundation
import SiftStore

/// The model a Sift SQL store keeps in its metadata table (as JSON, under the key `model`), as
/// every SQL store reads it when opened.
package enum StoredModel {
    /// The model in `text` (the metadata's `model` value, nil when there is none); `place` (the
    /// file's path, the database's name) begins the error's message.
    package static func read(_ text: String?, of place: String) throws(StoreError) -> DataModel {
        guard let text else {
            throw StoreError(.corruptStore, "\(place): the Sift metadata has no model")
        }
        do {
            return try JSONModelFormat.read(Data(text.utf8))
        } catch {
            throw StoreError(.corruptStore, "\(place): the stored model cannot be read: \(error)")
        }
    }
}
