import Foundation
import Testing

/// `sift update` and `sift delete` through the binary, on every store kind, on the Movies seed
/// app (Examples/Movies: Movie.characters is Cascade, Actor.movies is Deny; Movie.cast is a
/// reserved word, written #cast). What they changed is read back with `sift query`.
@Suite struct ChangeCommandTests {
    static let movies = QueryCommandTests.examples.appendingPathComponent("Movies")
    static let storeKinds = ["sqlite", "json", "plist"]

    /// A temporary folder holding the Movies data imported into a store of the kind.
    struct MoviesStore {
        let directory: URL
        let path: String

        init(_ storeExtension: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-change-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent("movies.\(storeExtension)").path
            let imported = try SiftBinary.run("import", "--store", path, "--model", ChangeCommandTests.movies.appendingPathComponent("model.json").path,
                                              ChangeCommandTests.movies.appendingPathComponent("data.json").path)
            try #require(imported.status == 0, "\(imported.stderr)")
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        func run(_ command: String, _ statement: String, _ options: String...) throws -> SiftBinary.Result {
            try SiftBinary.run(arguments: [command, "--store", path, statement] + options)
        }

        /// `sift query ... --output csv`, which must succeed, with lines ending in LF.
        func csv(_ statement: String) throws -> String {
            let result = try run("query", statement, "--output", "csv")
            #expect(result.status == 0, "\(statement): \(result.stderr)")
            return result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        }

        func count(_ statement: String) throws -> String {
            let result = try run("query", "COUNT " + statement)
            #expect(result.status == 0, "\(statement): \(result.stderr)")
            return result.stdout
        }

        var bytes: Data { get throws { try Data(contentsOf: URL(fileURLWithPath: path)) } }
    }

    // MARK: sift update

    @Test(arguments: storeKinds)
    func updateSetsConstantsAndExpressionsOfTheObject(_ kind: String) throws {
        let store = try MoviesStore(kind)
        defer { store.remove() }
        let constant = try store.run("update", "Movie SET watched = YES WHERE watched == NO")
        #expect(constant.status == 0, "\(constant.stderr)")
        #expect(constant.stdout == "updated 5 objects\n")
        #expect(constant.stderr.isEmpty)
        #expect(try store.count("Movie WHERE watched == NO") == "{\"count\": 0}\n")

        let computed = try store.run("update", "UPDATE Movie SET popularity = popularity * 2, duration = duration + 1, title = uppercase:(title) WHERE rating > 8")
        #expect(computed.status == 0, "\(computed.stderr)")
        #expect(computed.stdout == "updated 3 objects\n")
        #expect(try store.csv("SELECT title, popularity, duration FROM Movie WHERE rating > 8 SORT BY title") == """
            title,popularity,duration
            ALIEN,180.0,118
            ALIENS,170.0,138
            STAR WARS,190.0,122

            """)
        // The others are as they were.
        #expect(try store.csv("SELECT title, popularity, duration FROM Movie WHERE title == 'Arrival'") == "title,popularity,duration\nArrival,70.0,116\n")

        // Every value is computed from the object before any of them changes.
        let swapped = try store.run("update", "update Movie set popularity = duration, duration = popularity where title == 'Arrival'")
        #expect(swapped.stdout == "updated 1 object\n", "\(swapped.stderr)")
        #expect(try store.csv("SELECT popularity, duration FROM Movie WHERE title == 'Arrival'") == "popularity,duration\n116.0,70\n")

        let none = try store.run("update", "Movie SET rating = 1 WHERE title == 'Solaris'")
        #expect(none.status == 0 && none.stdout == "updated 0 objects\n", "\(none.stderr)")
    }

    @Test(arguments: storeKinds)
    func updateBindsArgumentsInOrderAcrossSetAndWhere(_ kind: String) throws {
        let store = try MoviesStore(kind)
        defer { store.remove() }
        let result = try store.run("update", "Movie SET rating = %@, releaseYear = %@, releaseDate = %@ WHERE %K ==[c] %@",
                                   "--arg", "9.5", "--arg", #""1979!""#, "--arg", #"{"$date": "2000-01-02T00:00:00Z"}"#,
                                   "--arg", #""title""#, "--arg", #""alien""#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "updated 1 object\n")
        #expect(try store.csv("SELECT title, rating, releaseYear, releaseDate FROM Movie WHERE rating > 9") ==
                "title,rating,releaseYear,releaseDate\nAlien,9.5,1979!,2000-01-02T00:00:00Z\n")

        let variables = try store.run("update", "Movie SET popularity = popularity + $bonus WHERE ANY #cast.name == $actor",
                                      "--var", "bonus=0.5", "--var", #"actor="Chris Pine""#)
        #expect(variables.status == 0, "\(variables.stderr)")
        #expect(variables.stdout == "updated 2 objects\n")
        #expect(try store.csv("SELECT popularity FROM Movie WHERE ANY #cast.name == 'Chris Pine' SORT BY popularity") == "popularity\n60.5\n80.5\n")
    }

    @Test(arguments: storeKinds)
    func updateErrorsChangeNothing(_ kind: String) throws {
        let store = try MoviesStore(kind)
        defer { store.remove() }
        let before = try store.bytes
        let failures: [(statement: String, message: String)] = [
            ("Movie SET titel = 'x'", "error: unknown key 'titel' on Movie; did you mean 'title'?"),
            ("Movie SET rating = ratin + 1", "error: unknown key 'ratin' on Movie; did you mean 'rating'?"),
            ("Movie SET rating = 1 WHERE ratng > 1", "error: unknown key 'ratng' on Movie; did you mean 'rating'?"),
            ("Movi SET rating = 1", "error: unknown entity 'Movi'; did you mean 'Movie'?"),
            ("Movie SET #cast = nil", "error: Movie: batch updates set attributes; 'cast' is a relationship"),
            // Values that do not fit their attribute: the type, a required value, one object's value.
            ("Movie SET duration = 'long'", "duration: expected a value of type Integer 64, got string"),
            ("Movie SET title = nil WHERE rating > 8", "required attribute title is nil"),
            ("Movie SET duration = rating * 10", "duration"),
        ]
        for failure in failures {
            let result = try store.run("update", failure.statement)
            #expect(result.status == 1, "\(failure.statement)")
            #expect(result.stdout.isEmpty, "\(failure.statement): \(result.stdout)")
            #expect(result.stderr.contains(failure.message), "\(failure.statement): \(result.stderr)")
            #expect(try store.bytes == before, "\(failure.statement) changed the store")
        }
        #expect(try store.csv("SELECT title, duration, rating FROM Movie WHERE title BEGINSWITH 'Star' SORT BY title") ==
                "title,duration,rating\nStar Wars,121,8.6\nStarship Troopers,129,7.3\n")
    }

    // MARK: sift delete

    @Test(arguments: storeKinds)
    func deleteCascadesAndNullifies(_ kind: String) throws {
        let store = try MoviesStore(kind)
        defer { store.remove() }
        let one = try store.run("delete", "Movie WHERE title == 'Aliens'")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "deleted 1 object\n")
        #expect(try store.count("Movie") == "{\"count\": 8}\n")
        // Movie.characters is Cascade: Ripley went with it; Movie.cast is Nullify: the actor stays.
        #expect(try store.count("Character") == "{\"count\": 11}\n")
        #expect(try store.count("Character WHERE name == 'Ripley'") == "{\"count\": 0}\n")
        #expect(try store.csv("SELECT name, movies.@count AS movies FROM Actor WHERE name == 'Sigourney Weaver'") == "name,movies\nSigourney Weaver,1\n")

        let two = try store.run("delete", "DELETE FROM Movie WHERE title BEGINSWITH %@", "--arg", #""Star""#)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout == "deleted 2 objects\n")
        #expect(try store.csv("SELECT title FROM Movie SORT BY title") == "title\nAlien\nArrival\nLone Star\nStár Trek Beyond\nThe Star\nstar trek\n")
        #expect(try store.count("Character") == "{\"count\": 7}\n")
        #expect(try store.count("Character WHERE name IN {'Luke Skywalker', 'Leia Organa', 'Han Solo', 'Johnny Rico'}") == "{\"count\": 0}\n")

        let none = try store.run("delete", "Movie WHERE rating > $r", "--var", "r=100")
        #expect(none.status == 0 && none.stdout == "deleted 0 objects\n", "\(none.stderr)")
    }

    @Test(arguments: storeKinds)
    func aDenyRuleRefusesTheDeleteAndNothingIsDeleted(_ kind: String) throws {
        let store = try MoviesStore(kind)
        defer { store.remove() }
        let before = try store.bytes
        // Actor.movies is Deny: Amy Adams is in Arrival.
        let denied = try store.run("delete", "Actor WHERE name == 'Amy Adams' OR name == 'Steven Yeun'")
        #expect(denied.status == 1)
        #expect(denied.stdout.isEmpty)
        #expect(denied.stderr.contains("error: cannot delete Actor 'Actor-"), "\(denied.stderr)")
        #expect(denied.stderr.contains("its relationship movies still has Movie '") && denied.stderr.contains("(delete rule Deny)"), "\(denied.stderr)")
        #expect(try store.bytes == before)
        #expect(try store.count("Actor") == "{\"count\": 10}\n")
        #expect(try store.count("Character") == "{\"count\": 12}\n")

        let unknown = try store.run("delete", "Movie WHERE titl == 'Alien'")
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown key 'titl' on Movie; did you mean 'title'?"), "\(unknown.stderr)")
        let entity = try store.run("delete", "Movi")
        #expect(entity.status == 1 && entity.stderr.contains("unknown entity 'Movi'; did you mean 'Movie'?"), "\(entity.stderr)")
        #expect(try store.bytes == before)
    }

    // MARK: Statements and help

    @Test func parseErrorsShowTheStatementAndACaret() throws {
        let store = try MoviesStore("json")
        defer { store.remove() }
        let update = try store.run("update", "Movie SET title 'x'")
        #expect(update.status == 1 && update.stdout.isEmpty)
        #expect(update.stderr == """
            Movie SET title 'x'
                            ^
            error: column 17: expected '=' after 'title', found ''x''

            """)
        let missingSet = try store.run("update", "Movie WHERE rating > 8")
        #expect(missingSet.stderr.contains("^\nerror: column 7: expected SET after the entity name, found 'WHERE'"), "\(missingSet.stderr)")
        let delete = try store.run("delete", "Movie WHRE rating > 8")
        #expect(delete.status == 1)
        #expect(delete.stderr == """
            Movie WHRE rating > 8
                  ^
            error: column 7: expected WHERE or the end of the statement, found 'WHRE'; did you mean 'WHERE'?

            """)
        let arguments = try store.run("update", "Movie SET rating = %@")
        #expect(arguments.status == 1 && arguments.stderr.contains("no argument for %@"), "\(arguments.stderr)")
        let badArgument = try store.run("update", "Movie SET rating = %@", "--arg", "{nope")
        #expect(badArgument.status == 1 && badArgument.stderr.contains("error: --arg 1"), "\(badArgument.stderr)")
        let missing = try SiftBinary.run("delete", "--store", "/nonexistent/x.json", "Movie")
        #expect(missing.status == 1 && missing.stderr.contains("no store at /nonexistent/x.json"))
    }

    @Test func helpShowsTheStatementsAndExamples() throws {
        let update = try SiftBinary.run("update", "--help")
        #expect(update.status == 0)
        #expect(update.stdout.contains("[UPDATE] Entity SET key = expression, ... [WHERE predicate]"))
        #expect(update.stdout.contains("Examples:") && update.stdout.contains("$ sift update --store"))
        let delete = try SiftBinary.run("delete", "--help")
        #expect(delete.status == 0)
        #expect(delete.stdout.contains("[DELETE [FROM]] Entity [WHERE predicate]") && delete.stdout.contains("Deny"))
        #expect(delete.stdout.contains("Examples:") && delete.stdout.contains("$ sift delete --store"))
        let root = try SiftBinary.run("--help")
        #expect(root.stdout.contains("update") && root.stdout.contains("delete"))
    }
}
