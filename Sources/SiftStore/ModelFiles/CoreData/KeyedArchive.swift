import Foundation

/// An `NSKeyedArchiver` archive, read without Foundation's unarchiver (which knows none of Core
/// Data's classes): the `$objects` table, the `$top` object, and each object's `$class`.
///
/// Objects refer to each other by UID, in any shape, loops included. The reader navigates the
/// graph one object at a time on request (``fields(of:)``, ``elements(of:)``, ``entries(of:)``)
/// and never follows references on its own, so a loop cannot make it hang; ``resolve(_:)``,
/// which builds a plain value (a user-info dictionary, a default value), refuses loops, nesting
/// deeper than ``maximumDepth`` and more than ``maximumResolvedObjects`` objects. Every fault (a
/// wrong class, a UID out of range, a member of the wrong kind) is a ``CoreDataModelError``.
///
/// Navigating is metered: every object read through ``fields(of:)``, ``elements(of:)`` or
/// ``entries(of:)`` costs its number of members, and one archive may spend at most
/// ``maximumWork(objects:)`` in all, linear in its size. A hostile graph that shares one large
/// list among many entities (so a decoder would read it again and again) is an error, not
/// minutes of work.
struct KeyedArchive {
    /// How deep ``resolve(_:)`` follows nested objects.
    static let maximumDepth = 64
    /// How many objects one ``resolve(_:)`` may produce (shared objects count each time).
    static let maximumResolvedObjects = 100_000
    /// What navigating an archive of `objects` property-list objects may cost: 100,000 plus 32
    /// per object (decoding a fixture's model cache spends at most a tenth of that).
    static func maximumWork(objects: Int) -> Int { 100_000 + 32 * objects }

    /// The work spent and allowed, shared by the copies of one archive.
    final class Meter {
        var spent = 0
        let limit: Int
        init(limit: Int) { self.limit = limit }
    }

    typealias Object = PropertyListObjectTable.Object

    /// A plain value built from archived objects.
    indirect enum Resolved: Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data(Data)
        case string(String)
        case array([Resolved])
        case dictionary([String: Resolved])
        /// An object of a class that is not a plain value: its class name.
        case object(className: String)
    }

    private let table: PropertyListObjectTable
    let meter: Meter
    /// The property-list index of each archived object, by UID.
    private let archived: [Int]
    /// The UID of the `root` object of `$top`.
    let root: Int

    init(_ data: Data) throws(CoreDataModelError) {
        let table = try PropertyListObjectTable(data)
        self.table = table
        meter = Meter(limit: Self.maximumWork(objects: table.objects.count))
        guard case .dictionary(let keys, let values) = table.objects[table.top] else {
            throw CoreDataModelError("the archive's top object is not a dictionary")
        }
        var top: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = table.objects[key] else { throw CoreDataModelError("the archive's top dictionary has a key that is not a string") }
            top[name] = value
        }
        guard let archiver = top["$archiver"], case .string(let name) = table.objects[archiver], name == "NSKeyedArchiver" else {
            throw CoreDataModelError("the archive is not an NSKeyedArchiver archive (no $archiver NSKeyedArchiver)")
        }
        guard let objectsIndex = top["$objects"], case .array(let objects) = table.objects[objectsIndex] else {
            throw CoreDataModelError("the archive has no $objects array")
        }
        archived = objects
        guard let topIndex = top["$top"], case .dictionary(let topKeys, let topValues) = table.objects[topIndex],
              let rootPosition = topKeys.firstIndex(where: { table.objects[$0] == .string("root") }),
              case .uid(let rootUID) = table.objects[topValues[rootPosition]] else {
            throw CoreDataModelError("the archive's $top has no root object")
        }
        guard rootUID > 0, rootUID < objects.count else {
            throw CoreDataModelError("the archive's root is object \(rootUID), of \(objects.count)")
        }
        root = rootUID
    }

    /// Spends `units` of work: an error once the archive's allowance is spent.
    func spend(_ units: Int) throws(CoreDataModelError) {
        meter.spent += units + 1
        guard meter.spent <= meter.limit else {
            throw CoreDataModelError("the archive takes more than \(meter.limit) steps to read (a graph that shares parts over and over?)")
        }
    }

    /// The number of archived objects.
    var count: Int { archived.count }

    /// The archived object `uid` (a property-list object).
    func object(_ uid: Int) throws(CoreDataModelError) -> Object {
        guard uid >= 0, uid < archived.count else { throw CoreDataModelError("the archive refers to object \(uid), of \(archived.count)") }
        return table.objects[archived[uid]]
    }

    /// Whether `uid` is the archive's `$null`.
    func isNull(_ uid: Int) throws(CoreDataModelError) -> Bool {
        try object(uid) == .string("$null") && uid == 0
    }

    /// The keys of object `uid` (a keyed object: a dictionary with a `$class`), each to its
    /// property-list object: a UID (``reference(_:)``) or an inline value.
    func fields(of uid: Int) throws(CoreDataModelError) -> [String: Object] {
        guard case .dictionary(let keys, let values) = try object(uid) else {
            throw CoreDataModelError("archived object \(uid) is not a keyed object")
        }
        try spend(keys.count)
        var fields: [String: Object] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = table.objects[key] else { throw CoreDataModelError("archived object \(uid) has a key that is not a string") }
            fields[name] = table.objects[value]
        }
        return fields
    }

    /// The class name of object `uid` (`$class` → `$classname`); nil for an object stored inline (a string, a number).
    func className(of uid: Int) throws(CoreDataModelError) -> String? {
        guard case .dictionary = try object(uid) else { return nil }
        guard let classReference = try fields(of: uid)["$class"] else { return nil }
        guard case .uid(let classUID) = classReference, case .dictionary = try object(classUID),
              case .string(let name)? = try fields(of: classUID)["$classname"] else {
            throw CoreDataModelError("archived object \(uid) has a $class that is not a class")
        }
        return name
    }

    /// The UID a field holds; nil for `$null` or a missing field.
    func reference(_ field: Object?) throws(CoreDataModelError) -> Int? {
        guard let field else { return nil }
        guard case .uid(let uid) = field else { throw CoreDataModelError("an archived field holds a value where an object is expected") }
        _ = try object(uid)
        return try isNull(uid) ? nil : uid
    }

    /// The string object `uid` holds: a plain string, or an `NSString`/`NSMutableString` (`NS.string`).
    func string(_ uid: Int) throws(CoreDataModelError) -> String {
        switch try object(uid) {
        case .string(let string) where uid != 0: return string
        case .dictionary:
            if case .string(let string)? = try fields(of: uid)["NS.string"] { return string }
            if case .data(let bytes)? = try fields(of: uid)["NS.bytes"], let string = String(data: bytes, encoding: .utf8) { return string }
        default: break
        }
        throw CoreDataModelError("archived object \(uid) (\(try className(of: uid) ?? "a value")) is not a string")
    }

    /// The members' UIDs of an `NSArray`, `NSSet` or `NSOrderedSet` (or their mutable forms).
    func elements(of uid: Int) throws(CoreDataModelError) -> [Int] {
        guard case .array(let members)? = try fields(of: uid)["NS.objects"] else {
            throw CoreDataModelError("archived object \(uid) (\(try className(of: uid) ?? "a value")) is not an array or set")
        }
        try spend(members.count)
        return try members.map { (member: Int) throws(CoreDataModelError) -> Int in
            guard case .uid(let memberUID) = table.objects[member] else { throw CoreDataModelError("archived collection \(uid) holds a member that is not an object") }
            _ = try object(memberUID)
            return memberUID
        }
    }

    /// The key and value UIDs of an `NSDictionary` (`NS.keys`, `NS.objects`) or Core Data's
    /// `NSKnownKeysDictionary1` (its mapping strategy's `keys`, its `values`), pairwise.
    func entries(of uid: Int) throws(CoreDataModelError) -> [(key: Int, value: Int)] {
        let fields = try fields(of: uid)
        if fields["NS.keys"] != nil {
            guard case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"], keys.count == values.count else {
                throw CoreDataModelError("archived dictionary \(uid) has keys and values that do not pair up")
            }
            try spend(keys.count)
            return try zip(keys, values).map { (pair: (Int, Int)) throws(CoreDataModelError) -> (key: Int, value: Int) in
                guard case .uid(let key) = table.objects[pair.0], case .uid(let value) = table.objects[pair.1] else {
                    throw CoreDataModelError("archived dictionary \(uid) holds an entry that is not an object")
                }
                _ = try object(key)
                _ = try object(value)
                return (key, value)
            }
        }
        if let mapping = try reference(fields["searchMapping"]), let valuesUID = try reference(fields["values"]) {
            guard let keysUID = try reference(try self.fields(of: mapping)["keys"]) else {
                throw CoreDataModelError("archived dictionary \(uid) has a key mapping without keys")
            }
            let keys = try elements(of: keysUID), values = try elements(of: valuesUID)
            guard values.count >= keys.count else {
                throw CoreDataModelError("archived dictionary \(uid) has \(keys.count) keys but \(values.count) values")
            }
            return Array(zip(keys, values.prefix(keys.count))).map { (key: $0.0, value: $0.1) }
        }
        throw CoreDataModelError("archived object \(uid) (\(try className(of: uid) ?? "a value")) is not a dictionary")
    }

    /// Object `uid` as a plain value: strings, numbers, data, dates, arrays, sets and
    /// dictionaries with string keys; any other class as ``Resolved/object(className:)``.
    func resolve(_ uid: Int) throws(CoreDataModelError) -> Resolved {
        var budget = Self.maximumResolvedObjects
        var inProgress = Set<Int>()
        return try resolve(uid, depth: 0, budget: &budget, inProgress: &inProgress)
    }

    private func resolve(_ uid: Int, depth: Int, budget: inout Int, inProgress: inout Set<Int>) throws(CoreDataModelError) -> Resolved {
        guard depth < Self.maximumDepth else { throw CoreDataModelError("archived objects nest more than \(Self.maximumDepth) deep") }
        budget -= 1
        guard budget >= 0 else { throw CoreDataModelError("archived value holds more than \(Self.maximumResolvedObjects) objects") }
        if try isNull(uid) { return .null }
        switch try object(uid) {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .real(let r): return .real(r)
        case .date(let d): return .date(d)
        case .data(let d): return .data(d)
        case .string(let s): return .string(s)
        case .uid, .array: throw CoreDataModelError("archived object \(uid) is not an object")
        case .dictionary: break
        }
        guard inProgress.insert(uid).inserted else { throw CoreDataModelError("archived object \(uid) contains itself (a cycle)") }
        defer { inProgress.remove(uid) }
        let name = try className(of: uid) ?? ""
        let fields = try fields(of: uid)
        switch name {
        case "NSString", "NSMutableString":
            return .string(try string(uid))
        case "NSData", "NSMutableData":
            guard case .data(let bytes)? = fields["NS.data"] else { throw CoreDataModelError("archived NSData \(uid) has no bytes") }
            return .data(bytes)
        case "NSDate":
            guard let time = fields["NS.time"] else { throw CoreDataModelError("archived NSDate \(uid) has no time") }
            switch time {
            case .real(let t): return .date(t)
            case .integer(let t): return .date(Double(t))
            default: throw CoreDataModelError("archived NSDate \(uid) has a time that is not a number")
            }
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            var members: [Resolved] = []
            for member in try elements(of: uid) {
                members.append(try resolve(member, depth: depth + 1, budget: &budget, inProgress: &inProgress))
            }
            return .array(members)
        case "NSDictionary", "NSMutableDictionary", "NSKnownKeysDictionary1":
            var dictionary: [String: Resolved] = [:]
            for (key, value) in try entries(of: uid) {
                dictionary[try string(key)] = try resolve(value, depth: depth + 1, budget: &budget, inProgress: &inProgress)
            }
            return .dictionary(dictionary)
        default:
            return .object(className: name)
        }
    }
}
