import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Text dates of one fixed-width form compare as text, so an index serves them (issue 28 §4),
/// with the answers `sift_date` gives: every form, every operator, constants between two of the
/// form's steps, at the top level and nested; a column with one value of another spelling, a
/// number or a non-date beyond the rows sampled is read through `sift_date`.
@Suite struct ForeignTextDateTests {
    /// `rows` events, `at` a text date in `form` (an hour and 7 minutes apart, some NULL), with an
    /// index on it, and an owner each (a to-many to test nested comparisons).
    static func events(_ form: TextDateForm, rows: Int = 2100, indexed: Bool = true, extra: String = "") throws -> URL {
        let format = form.strftimeFormat.replacingOccurrences(of: "%M", with: "%M")
        return try ForeignDatabaseTests.database("""
            CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE event (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner(id), at DATETIME);
            \(indexed ? "CREATE INDEX event_at ON event (at);" : "")
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 40) INSERT INTO owner SELECT k, 'o' || k FROM n;
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO event SELECT k, 1 + k % 40, CASE WHEN k % 97 = 0 THEN NULL
                ELSE strftime('\(format)', 1262304000 + k * 4020, 'unixepoch') END FROM n;
            \(extra)
            """)
    }

    static let predicates = [
        #"at >= "2010-02-01""#, #"at > "2010-02-01""#, #"at < "2010-02-01T12:00:00Z""#, #"at <= "2010-02-01 12:06:00""#,
        #"at == "2010-01-01 01:07:00""#, #"at != "2010-01-01 01:07:00""#, #"at BETWEEN {"2010-01-15", "2010-02-15"}"#,
        #"NOT (at >= "2010-02-01")"#, #"at >= "2010-01-20T10:30:00.5Z""#, #"at < "2010-01-20T10:30:00.5Z""#,
        #"at == "2010-01-20T10:30:00.5Z""#, #"at != "2010-01-20T10:30:00.5Z""#, #"at > "1999-12-31T23:00:00-05:00""#,
        #"at >= "2010-01-02" AND at < "2010-01-03""#, #"at == nil"#, #"at != nil OR at < "2010-01-05""#,
        #""2010-02-01" <= at"#, #"at IN {"2010-01-01 01:07:00", "2010-01-01 02:14:00"}"#,
        #"owner.name == "o3" AND at > "2010-01-09""#,
    ]

    static let ownerPredicates = [
        #"ANY events.at >= "2010-03-01""#, #"ALL events.at < "2010-03-01""#, #"NONE events.at == "2010-01-01 01:07:00""#,
        #"SUBQUERY(events, $e, $e.at >= "2010-02-01" AND $e.at < "2010-02-02").@count > 0"#,
    ]

    /// Fetches predicates on an entity in SQL and in the evaluator (on every object, read once):
    /// the same objects.
    struct Checker {
        let store: SQLiteStore
        let entity: String
        let objects: [ManagedObject]

        init(_ store: SQLiteStore, _ entity: String) throws {
            self.store = store
            self.entity = entity
            objects = try store.fetch(FetchRequest(entityName: entity)).map { $0 }
        }

        /// Checks `format`; returns the SQL's condition (the columns selected read the dates
        /// through sift_date).
        @discardableResult
        func check(_ format: String) throws -> String {
            let request = try FetchRequest(entityName: entity, predicate: format)
            let description = try #require(store.model.entity(named: entity))
            let typed = try ModelKeyPaths.typedPredicate(try #require(request.predicate), entity: description, model: store.model)
            let compiled = try CompiledPredicate(typed)
            let expected = try objects.filter { try compiled.evaluate(.object($0)) }.map(\.objectID.rawValue)
            #expect(try store.fetch(request).objectIDs.map(\.rawValue) == expected, "\(format)")
            let sql = try store.generatedSQL(for: request)
            #expect(sql.inMemoryPredicate == nil, "\(format)")
            return sql.sql.components(separatedBy: " WHERE ").dropFirst().joined(separator: " WHERE ")
        }
    }

    @Test(arguments: TextDateForm.allCases)
    func everyFormComparesAsText(_ form: TextDateForm) throws {
        let url = try Self.events(form)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let events = try Checker(store, "event"), owners = try Checker(store, "owner")
        for format in Self.predicates {
            let sql = try events.check(format)
            // (A constant between two steps is no value: equal to none, so no column is read.)
            if !format.contains("nil") && !format.contains("== \"2010-01-20T10:30:00.5Z\"") && !format.contains("!= \"2010-01-20") {
                #expect(!sql.contains("sift_date"), "\(format): \(sql)")
            }
        }
        for format in Self.ownerPredicates {
            #expect(!(try owners.check(format)).contains("sift_date"), "\(format)")
        }
        #expect(store.columnTypeReasons["event"]?["at"] == "declared DATETIME; ISO 8601 text (\(form.pattern))")
    }

    /// The comparison is a search of the index, as sqlite3's own.
    @Test func theIndexServesTheComparison() throws {
        let url = try Self.events(.seconds)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: #"COUNT event WHERE at >= "2010-02-01" AND at < "2010-03-01""#)
        let sql = try store.generatedSQL(for: request)
        #expect(sql.sql == #"SELECT count(*) FROM "event" AS "t0" WHERE "t0"."at" >= ?1 AND "t0"."at" < ?2"#)
        #expect(sql.bindings == [.text("2010-02-01 00:00:00"), .text("2010-03-01 00:00:00")])
        let plan = try store.queryPlan(for: request).joined(separator: "\n")
        #expect(plan.contains("USING COVERING INDEX event_at (at>? AND at<?)"), "\(plan)")
        #expect(try store.count(request) == ForeignDatabaseTests.scalar(url, "SELECT count(*) FROM event WHERE at >= '2010-02-01' AND at < '2010-03-01'"))
    }

    /// A value of another spelling, a number or a text that is no date beyond the rows sampled:
    /// the column is not of one form, and is read through `sift_date` — the same answers.
    @Test(arguments: ["'2010-01-20T10:30:00'", "'2010-01-20'", "1264000000", "'someday'", "'2010-01-20 10:30:00+02:00'", "'2010-02-30 10:00:00'"])
    func aValueOfAnotherSpellingBeyondTheSampleIsReadThroughSiftDate(_ odd: String) throws {
        let url = try Self.events(.seconds, extra: "UPDATE event SET at = \(odd) WHERE id = 1050;")
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let events = try Checker(store, "event")
        for format in Self.predicates.prefix(10) { #expect(try events.check(format).contains("sift_date")) }
        #expect(store.columnTypeReasons["event"]?["at"]?.hasSuffix("; not every value is YYYY-MM-DD HH:MM:SS") == true)
    }

    /// A table read whole needs no index and no second look: its sample is every value. A
    /// sampled table without an index, small enough to read once, is checked by reading it.
    @Test func tablesWithoutAnIndexCompareAsTextToo() throws {
        let url = try Self.events(.date, rows: 500, indexed: false)
        defer { ForeignDatabaseTests.remove(url) }
        #expect(try Checker(try SQLiteStore.open(at: url), "event").check(#"at >= "2010-02-01""#).contains(#""t0"."at" >= ?1"#))
        let sampled = try Self.events(.date, indexed: false)
        defer { ForeignDatabaseTests.remove(sampled) }
        #expect(try Checker(try SQLiteStore.open(at: sampled), "event").check(#"at >= "2010-02-01""#).contains(#""t0"."at" >= ?1"#))
        let odd = try Self.events(.date, indexed: false, extra: "UPDATE event SET at = '2010-01-20 10:30' WHERE id = 1050;")
        defer { ForeignDatabaseTests.remove(odd) }
        #expect(try Checker(try SQLiteStore.open(at: odd), "event").check(#"at >= "2010-02-01""#).contains("sift_date"))
    }

    /// The rendering of a constant in each form: the step at or before it, and whether it is one.
    @Test func constantsAreWrittenInTheForm() throws {
        let noon = try #require(ISO8601.date(from: "2011-06-01T12:00:00.5Z")).timeIntervalSinceReferenceDate
        #expect(TextDateForm.seconds.text(atOrBefore: noon)! == ("2011-06-01 12:00:00", false))
        #expect(TextDateForm.secondsZ.text(atOrBefore: noon.rounded(.down))! == ("2011-06-01T12:00:00Z", true))
        #expect(TextDateForm.date.text(atOrBefore: noon)! == ("2011-06-01", false))
        #expect(TextDateForm.minutes.text(atOrBefore: noon)! == ("2011-06-01 12:00", false))
        #expect(TextDateForm.date.text(atOrBefore: try #require(ISO8601.date(from: "1969-12-31T23:59:59Z")).timeIntervalSinceReferenceDate)! == ("1969-12-31", false))
        #expect(TextDateForm.seconds.text(atOrBefore: 1e12) == nil)
        #expect(TextDateForm.of("2011-06-01 12:00:59") == .seconds)
        for text in ["2011-06-01 12:00:60", "2011-02-29", "2011-06-01 24:00:00", "2011-06-01T12:00:00+01:00", "2011-6-01", "2011-06-01 12:00:00.5"] {
            #expect(TextDateForm.of(text) == nil, "\(text)")
        }
    }
}
