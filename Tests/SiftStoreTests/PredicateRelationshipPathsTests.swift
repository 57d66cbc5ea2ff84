import Foundation
import SiftLanguage
import Testing
@testable import SiftStore

/// The relationship key paths a predicate reads (what a store loads for a batch of objects
/// before the evaluator reads them), followed through the model.
@Suite struct PredicateRelationshipPathsTests {
    static let model = #"""
    {"name": "Music", "entities": [
      {"name": "Track", "attributes": [{"name": "name", "type": "String"}, {"name": "length", "type": "Integer 64"}],
       "relationships": [
         {"name": "album", "destination": "Album", "inverse": "tracks"},
         {"name": "entries", "destination": "Entry", "toMany": true, "inverse": "track"},
         {"name": "lines", "destination": "Line", "toMany": true, "inverse": "track"}]},
      {"name": "Album", "attributes": [{"name": "title", "type": "String"}],
       "relationships": [{"name": "tracks", "destination": "Track", "toMany": true, "inverse": "album"}]},
      {"name": "Playlist", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "entries", "destination": "Entry", "toMany": true, "inverse": "playlist"}]},
      {"name": "Entry",
       "relationships": [
         {"name": "playlist", "destination": "Playlist", "inverse": "entries"},
         {"name": "track", "destination": "Track", "inverse": "entries"}]},
      {"name": "Line", "attributes": [{"name": "total", "type": "Double"}],
       "relationships": [{"name": "track", "destination": "Track", "inverse": "lines"}]}
    ]}
    """#

    @Test(arguments: [
        ("name == 'x'", []),
        ("album.title == 'x'", ["album"]),
        ("ANY entries.playlist.entries.track.lines.total > 20", ["entries.playlist.entries.track.lines"]),
        // Prefixes of a listed path are not listed apart; paths in the order first met.
        ("entries.@count > 1 AND album.tracks.name == 'a' AND entries.playlist.name == 'b'", ["album.tracks", "entries.playlist"]),
        // Operators pass through: the keys after one are read on each element.
        ("entries.@sum.track.length > 1", ["entries.track"]),
        ("album.tracks.@max.length > 1", ["album.tracks"]),
        // A SUBQUERY's variable and its bare key paths read the collection's elements.
        ("SUBQUERY(entries, $e, $e.playlist.name == 'x' AND track.album.title == 'y').@count > 0", ["entries.playlist", "entries.track.album"]),
        ("SUBQUERY(album.tracks, $t, SUBQUERY($t.lines, $l, $l.total > 1).@count > 0).@count > 0", ["album.tracks.lines"]),
        // Functions, arithmetic, TERNARY and indexes read their operands.
        ("uppercase:(album.title) == 'X' OR length + lines.@count > 2", ["album", "lines"]),
        ("entries[FIRST].playlist.name == 'x'", ["entries.playlist"]),
        // A variable bound from outside, an unknown key: nothing.
        ("$x.album.title == 'y' AND nope.title == 'z'", []),
    ] as [(String, [String])])
    func readsThePathsOfItsKeyPaths(_ format: String, _ expected: [String]) throws {
        let model = try JSONModelFormat.read(Data(Self.model.utf8))
        let entity = try #require(model.entity(named: "Track"))
        let predicate = try PredicateNode(format: format)
        #expect(PredicateRelationshipPaths.paths(of: predicate, entity: entity, model: model) == expected)
    }
}
