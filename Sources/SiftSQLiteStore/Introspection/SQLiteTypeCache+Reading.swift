import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftStore

/// Reading a cache entry (``SQLiteTypeCache/Entry``, written by `JSONEncoder` under the names of
/// its properties) by hand, with Sift's own JSON parser. A `Decodable` read instantiated a
/// keyed container and looked up conformances for each of its types the first time: about a
/// millisecond of every command on a database that has an entry, more than the rest of reading
/// the database's model. Anything missing or of another type makes the entry unreadable, which
/// is as no entry.
extension SQLiteTypeCache.Entry {
    init?(json data: Data) {
        guard case .dictionary(let root)? = try? JSONParser.parse(data),
              case .string(let format)? = root["format"],
              case .int(let rules)? = root["rules"],
              case .dictionary(let identity)? = root["identity"], let identity = DatabaseFileIdentity(cached: identity),
              case .dictionary(let tables)? = root["tables"]
        else { return nil }
        var read: [String: SQLiteTypeCache.CachedTable] = [:]
        for name in tables.keys {
            guard case .dictionary(let table)? = tables[name], let cached = SQLiteTypeCache.CachedTable(cached: table) else { return nil }
            read[name] = cached
        }
        self.init(format: format, rules: Int(rules), identity: identity, tables: read)
    }
}

extension SQLiteTypeCache.CachedTable {
    init?(cached table: ValueDictionary) {
        guard case .array(let declared)? = table["declared"], let declared = Self.strings(declared),
              case .dictionary(let types)? = table["types"],
              case .dictionary(let columns)? = types["columns"], case .bool(let isWhole)? = types["isWhole"]
        else { return nil }
        var read: [String: ForeignColumn] = [:]
        for name in columns.keys {
            guard case .dictionary(let column)? = columns[name], let foreign = ForeignColumn(cached: column) else { return nil }
            read[name] = foreign
        }
        self.init(declared: declared, types: ColumnTypeInference.TableTypes(columns: read, isWhole: isWhole))
    }

    static func strings(_ values: [Value]) -> [String]? {
        var strings: [String] = []
        for value in values {
            guard case .string(let string) = value else { return nil }
            strings.append(string)
        }
        return strings
    }
}

extension ForeignColumn {
    package init?(cached column: ValueDictionary) {
        guard case .string(let typeName)? = column["type"], let type = AttributeType(rawValue: typeName),
              case .string(let reason)? = column["reason"],
              case .bool(let readsOnlyZeroOrOne)? = column["readsOnlyZeroOrOne"],
              case .bool(let normalizesText)? = column["normalizesText"],
              case .bool(let stripsAffinity)? = column["stripsAffinity"]
        else { return nil }
        self.init(type: type, readsOnlyZeroOrOne: readsOnlyZeroOrOne, normalizesText: normalizesText, stripsAffinity: stripsAffinity, reason: reason)
        switch column["dateEncoding"] {
        case nil, .null?: break
        case .string(let name)?:
            guard let encoding = ForeignDateEncoding(rawValue: name) else { return nil }
            dateEncoding = encoding
        default: return nil
        }
        switch column["storageClasses"] {
        case nil, .null?: break
        case .array(let names)?:
            guard let names = SQLiteTypeCache.CachedTable.strings(names) else { return nil }
            storageClasses = names
        default: return nil
        }
        switch column["textDates"] {
        case nil, .null?: break
        case .dictionary(let dates)?:
            guard case .int(let form)? = dates["form"], let form = TextDateForm(rawValue: Int(form)),
                  case .bool(let isVerified)? = dates["isVerified"] else { return nil }
            textDates = TextDates(form: form, isVerified: isVerified)
        default: return nil
        }
    }
}

extension DatabaseFileIdentity {
    init?(cached identity: ValueDictionary) {
        guard case .string(let path)? = identity["path"],
              case .int(let device)? = identity["device"], device >= 0,
              case .int(let inode)? = identity["inode"], inode >= 0,
              case .int(let size)? = identity["size"],
              case .int(let modified)? = identity["modifiedNanoseconds"],
              case .int(let changeCounter)? = identity["changeCounter"], let counter = UInt32(exactly: changeCounter)
        else { return nil }
        switch identity["log"] {
        case nil, .null?: log = nil
        case .string(let state)?: log = state
        default: return nil
        }
        self.path = path
        self.device = UInt64(device)
        self.inode = UInt64(inode)
        self.size = size
        modifiedNanoseconds = modified
        self.changeCounter = counter
    }
}
