import Foundation
import Testing
import Sift

@Suite("sift parse")
struct ParseCommandTests {
    @Test func printsTheCanonicalForm() throws {
        let r = try SiftBinary.run("parse", "name = 'Ann' or age >= 30 and age =< 40")
        #expect(r.status == 0)
        #expect(r.stdout == "name == \"Ann\" OR (age >= 30 AND age <= 40)\n")
        #expect(r.stderr == "")
    }

    @Test func bindsArgumentsInOrder() throws {
        let r = try SiftBinary.run("parse", "%K BEGINSWITH[cd] %@ AND year > %d AND tags IN %@", "--arg", #""title""#, "--arg", #""star""#,
                                   "--arg", "1970", "--arg", #"["a", 2, 2.5, null, true]"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "title BEGINSWITH[cd] \"star\" AND year > 1970 AND tags IN {\"a\", 2, 2.5, nil, 1}\n")
    }

    @Test func bindsTypedJSONValues() throws {
        let r = try SiftBinary.run("parse", "a > %@ AND b == %@ AND c == %@ AND d == %@", "--arg", #"{"$date": "2001-01-01T00:01:00Z"}"#,
                                   "--arg", #"{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#, "--arg", #"{"$data": "AQI="}"#,
                                   "--arg", #"{"$decimal": "1.25"}"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"a > CAST(60.0, "NSDate") AND b == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID") AND c == CAST("AQI=", "NSData") AND d == CAST("1.25", "NSDecimalNumber")"# + "\n")
    }

    @Test func bindsVariables() throws {
        let r = try SiftBinary.run("parse", "released > $since AND genre IN $genres AND x == $unbound",
                                   "--var", #"since={"$date": "2001-01-02T00:00:00Z"}"#, "--var", #"$genres=["sci-fi"]"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"released > CAST(86400.0, "NSDate") AND genre IN {"sci-fi"} AND x == $unbound"# + "\n")
    }

    @Test func bindsJSONObjectsAsDictionaries() throws {
        let r = try SiftBinary.run("parse", "SELF IN %@ AND name == %@['k'] AND x IN $d AND y == %@",
                                   "--arg", #"{"b": 1, "a": {"$date": "2001-01-01T00:01:00Z"}}"#, "--arg", #"{"k": "Ann"}"#,
                                   "--arg", #"{"$date": 1, "x": 2}"#, "--var", "d={}")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"SELF IN {"b": 1, "a": CAST(60.0, "NSDate")} AND name == {"k": "Ann"}["k"] AND x IN {:} AND y == {"$date": 1, "x": 2}"# + "\n")
    }

    @Test func bindsKeyPathArgumentsAfterADot() throws {
        let r = try SiftBinary.run("parse", "%K.%K BEGINSWITH 'a' AND $x.%K == 1 AND %K[FIRST].%K > 2",
                                   "--arg", #""objectCol""#, "--arg", #""stringCol""#, "--arg", #""author.name""#,
                                   "--arg", #""items""#, "--arg", #""size""#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"objectCol.stringCol BEGINSWITH "a" AND $x.author.name == 1 AND items[FIRST].size > 2"# + "\n")
        let missing = try SiftBinary.run("parse", "a.%K == 1")
        #expect(missing.status == 1)
        #expect(missing.stderr == "a.%K == 1\n  ^\nerror: column 3: no argument for %K (argument 1; 0 given)\n")
    }

    @Test func reservedWordKeysSayHowToWriteThem() throws {
        let r = try SiftBinary.run("parse", "cast.name == 1")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "cast.name == 1\n^\nerror: column 1: 'cast' is a reserved word; write #cast to use it as a key\n")
        let fixed = try SiftBinary.run("parse", "#cast.name == 1 AND #size > 3")
        #expect(fixed.stdout == "#cast.name == 1 AND #size > 3\n")
    }

    @Test func printsTheASTAsJSON() throws {
        let r = try SiftBinary.run("parse", "ANY tags.name BEGINSWITH[cd] %@", "--arg", #""sci""#, "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let decoded = try JSONDecoder().decode(PredicateNode.self, from: Data(r.stdout.utf8))
        #expect(decoded == (try PredicateNode(format: #"ANY tags.name BEGINSWITH[cd] "sci""#)))
        #expect(r.stdout.contains(#""modifier" : "any""#))
    }

    @Test func parseErrorsShowTheColumnWithACaret() throws {
        let r = try SiftBinary.run("parse", "name BEGINSWTH 'a'")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            name BEGINSWTH 'a'
                 ^
            error: column 6: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?

            """)
    }

    @Test func multiLinePredicatesPrintOnOneLine() throws {
        let r = try SiftBinary.run("parse", "a == 1\n  AND b ==")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("a == 1   AND b ==\n                 ^\nerror: column 18: "))
    }

    @Test func missingAndLeftoverArgumentsAreErrors() throws {
        let missing = try SiftBinary.run("parse", "a == %@")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: column 6: no argument for %@"))
        let leftover = try SiftBinary.run("parse", "a == 1", "--arg", "2")
        #expect(leftover.status == 1)
        #expect(leftover.stderr.contains("1 argument was given but the format string uses 0"))
    }

    @Test func malformedArgumentJSONIsAClearError() throws {
        let r = try SiftBinary.run("parse", "a == %@", "--arg", "{nope")
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: --arg 1 ('{nope'): line 1, column 2: expected a string key"))
        let v = try SiftBinary.run("parse", "a == $x", "--var", "x")
        #expect(v.status == 1)
        #expect(v.stderr.contains("expected NAME=JSON"))
        let date = try SiftBinary.run("parse", "a == %@", "--arg", #"{"$date": "yesterday"}"#)
        #expect(date.status == 1)
        #expect(date.stderr.contains("invalid ISO 8601 date 'yesterday'"))
    }

    @Test func helpShowsExamples() throws {
        let root = try SiftBinary.run("--help")
        #expect(root.status == 0)
        #expect(root.stdout.contains("Examples:"))
        #expect(root.stdout.contains("sift parse"))
        let parse = try SiftBinary.run("parse", "--help")
        #expect(parse.status == 0)
        #expect(parse.stdout.contains("Examples:"))
        #expect(parse.stdout.contains("--arg"))
        #expect(parse.stdout.contains("--var"))
    }

    @Test func predicatesStartingWithAMinusFollowADoubleDash() throws {
        let r = try SiftBinary.run("parse", "--", "-a > 1")
        #expect(r.status == 0)
        #expect(r.stdout == "-a > 1\n")
    }
}
