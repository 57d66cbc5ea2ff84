import SiftLanguage

/// An error from a store: an invalid insert or update, a save that breaks a rule of the model,
/// a delete a Deny rule refuses, an import row that does not fit, an unreadable store file.
/// The message names the entity, the object and the key.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case unknownEntity, unknownKey, invalidValue, missingValue, constraintViolation
            case deleteDenied, unknownObject, duplicateObjectID, abstractEntity, relationshipCount
            case corruptStore, fileSystem, invalidRequest
            case unsupportedModel, readOnly, database, locked, interrupted, conflict, typeMismatch, memoryLimit
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        public static let unknownEntity = Code(.unknownEntity)
        /// A key the entity does not have.
        public static let unknownKey = Code(.unknownKey)
        /// A value of the wrong type for its attribute, or out of range.
        public static let invalidValue = Code(.invalidValue)
        /// A required attribute or to-one relationship is nil.
        public static let missingValue = Code(.missingValue)
        /// Two objects share the values of a uniqueness constraint.
        public static let constraintViolation = Code(.constraintViolation)
        /// A Deny delete rule refused a delete.
        public static let deleteDenied = Code(.deleteDenied)
        /// An object ID that names no object (a dangling reference).
        public static let unknownObject = Code(.unknownObject)
        public static let duplicateObjectID = Code(.duplicateObjectID)
        /// An insert of an abstract entity.
        public static let abstractEntity = Code(.abstractEntity)
        /// A to-many relationship with fewer or more objects than its model allows.
        public static let relationshipCount = Code(.relationshipCount)
        /// A store file that is not a Sift store, or is damaged.
        public static let corruptStore = Code(.corruptStore)
        /// Reading or writing a file failed.
        public static let fileSystem = Code(.fileSystem)
        /// A fetch request that cannot run (unknown sort key, negative limit, ...).
        public static let invalidRequest = Code(.invalidRequest)
        /// A model a store cannot hold (a name the SQLite store reserves, ...).
        public static let unsupportedModel = Code(.unsupportedModel)
        /// A change to a store that cannot be written (a database Sift did not create).
        public static let readOnly = Code(.readOnly)
        /// The database engine failed (SQLite's message and code are in the message).
        public static let database = Code(.database)
        /// Another connection or process holds the store's lock (and waiting for it timed out).
        public static let locked = Code(.locked)
        /// The store's `interrupt()` stopped the fetch or change (Ctrl-C in the REPL).
        public static let interrupted = Code(.interrupted)
        /// Another process saved the store file since this store read it: the save is refused
        /// rather than write over that process's objects (open the file again and redo the changes).
        public static let conflict = Code(.conflict)
        /// A comparison the model's types rule out before running (LANGUAGE.md §3): an ordering
        /// between kinds with no common order, a string that is no date for a Date attribute.
        public static let typeMismatch = Code(.typeMismatch)
        /// A change that needed more memory than ``EvaluationBudget/memoryLimit`` allows (an
        /// import into a store held in memory): nothing of it was made.
        public static let memoryLimit = Code(.memoryLimit)

        public var description: String { kind.rawValue }
    }

    public let code: Code
    public let message: String
    /// The entity, object and key involved, where known.
    public let entity: String?
    public let objectID: ObjectID?
    public let key: String?

    public init(_ code: Code, _ message: String, entity: String? = nil, objectID: ObjectID? = nil, key: String? = nil) {
        self.code = code
        self.message = message
        self.entity = entity
        self.objectID = objectID
        self.key = key
    }

    public var description: String { message }

    /// The same error with `suffix` after its message.
    public func suffixed(_ suffix: String) -> StoreError {
        StoreError(code, message + suffix, entity: entity, objectID: objectID, key: key)
    }

    /// The same error with `prefix` before its message (`"notes.json: "`, `"line 3: "`).
    public func prefixed(_ prefix: String) -> StoreError {
        guard !prefix.isEmpty else { return self }
        return StoreError(code, prefix + message, entity: entity, objectID: objectID, key: key)
    }
}
