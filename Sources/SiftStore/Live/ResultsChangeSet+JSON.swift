import SiftLanguage

extension ResultsChangeSet {
    /// The whole of `snapshot` as a change from no results: every section inserted, then every
    /// object (what a follower that starts from nothing needs first; `sift watch`'s first line).
    public static func inserting(_ snapshot: ResultsSnapshot) -> ResultsChangeSet {
        var changes = ResultsChangeSet(snapshot: snapshot)
        for (s, section) in snapshot.sections.enumerated() {
            changes.sectionInserts.append(SectionChange(index: s, name: section.name))
            section.ids.forEachIndexed { r, id in
                changes.inserts.append(ObjectChange(kind: .insert, objectID: id, oldIndexPath: nil, newIndexPath: ResultIndexPath(section: s, row: r)))
            }
        }
        return changes
    }

    /// The change set as one line of JSON (no newline), in the order of application:
    ///
    ///     {"sections": {"deletes": [{"index": 1, "name": "b"}], "inserts": [...]},
    ///      "objects": [{"change": "delete", "id": "o3", "indexPath": [1, 0]},
    ///                  {"change": "insert", "id": "o9", "newIndexPath": [0, 2]},
    ///                  {"change": "move", "id": "o4", "indexPath": [0, 0], "newIndexPath": [0, 1]},
    ///                  {"change": "update", "id": "o5", "indexPath": [0, 3], "newIndexPath": [0, 3]}]}
    ///
    /// (on one line). `indexPath` is the old index path, `newIndexPath` the new one.
    public var jsonLine: String {
        var line = "{\"sections\": {\"deletes\": ["
        func section(_ change: SectionChange) -> String {
            "{\"index\": \(change.index), \"name\": \(Self.jsonString(change.name))}"
        }
        line += sectionDeletes.map(section).joined(separator: ", ")
        line += "], \"inserts\": ["
        line += sectionInserts.map(section).joined(separator: ", ")
        line += "]}, \"objects\": ["
        line += objectChanges.map { change in
            var object = "{\"change\": \"\(change.kind.rawValue)\", \"id\": \(Self.jsonString(change.objectID.rawValue))"
            if let old = change.oldIndexPath { object += ", \"indexPath\": [\(old.section), \(old.row)]" }
            if let new = change.newIndexPath { object += ", \"newIndexPath\": [\(new.section), \(new.row)]" }
            return object + "}"
        }.joined(separator: ", ")
        return line + "]}"
    }

    private static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
