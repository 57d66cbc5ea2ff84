import Foundation

/// Whether the hidden columns of a store's searchable attributes are in its database. They
/// are, in a store created with its model; a store whose stored model marks attributes
/// searchable that it lacks the columns of gains them in its next write transaction
/// (``StoreLayoutMigration``), and until then the compiler reads the attributes themselves.
package final class SearchColumnPresence: @unchecked Sendable {
    private let lock = NSLock()
    private var present: Bool

    init(_ present: Bool) { self.present = present }

    package var isPresent: Bool {
        get { lock.withLock { present } }
        set { lock.withLock { present = newValue } }
    }
}
