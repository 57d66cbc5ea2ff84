import SiftLanguage

/// The relationship key paths a predicate reads from the objects it is evaluated on, as
/// `relationshipKeyPathsForPrefetching` spells them (`playlists`, `playlists.tracks.album`):
/// what a store loads for a batch of objects, one query per step, before the evaluator reads
/// them (else each object read would be a query of its own, and each object of each step).
///
/// Every key path of the predicate is followed from the entity through the model while its
/// keys are relationships (`tracks.album.title` reads `tracks.album`); collection operators
/// pass through (`tracks.@sum.album.year` reads `tracks.album`), and a SUBQUERY's variable and
/// its bare key paths read its collection's elements (`SUBQUERY(tracks, $t, $t.album.year > 1)`
/// reads `tracks.album`). A path that leaves the model (an unknown key, a variable bound from
/// outside) adds nothing: the evaluator reads it as it would anyway.
package enum PredicateRelationshipPaths {
    /// The relationship key paths `predicate` reads from objects of `entity`, each once, in the
    /// order first met (a path's prefixes are not listed apart).
    package static func paths(of predicate: PredicateNode, entity: EntityDescription, model: DataModel) -> [String] {
        var reader = Reader(model: model)
        reader.visit(predicate, in: Place(entity: entity, path: []), variables: [:])
        return reader.paths.filter { path in !reader.paths.contains { $0.hasPrefix(path + ".") } }
    }

    /// The relationship key path `keyPath` reads from objects of `entity` (`author.publisher`
    /// for `author.publisher.name`; none when its first key is not a relationship).
    package static func paths(ofKeyPath keyPath: String, entity: EntityDescription, model: DataModel) -> [String] {
        var reader = Reader(model: model)
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        reader.follow(keys[...], from: Place(entity: entity, path: []), variables: [:])
        return reader.paths
    }

    /// Where key paths start: an entity, reached from the fetched objects by `path`.
    private struct Place {
        let entity: EntityDescription
        let path: [String]
    }

    private struct Reader {
        let model: DataModel
        var paths: [String] = []

        mutating func visit(_ predicate: PredicateNode, in place: Place, variables: [String: Place]) {
            switch predicate.kind {
            case .constant: break
            case .and(let parts), .or(let parts): for part in parts { visit(part, in: place, variables: variables) }
            case .not(let inner): visit(inner, in: place, variables: variables)
            case .comparison(let comparison):
                _ = visit(comparison.left, in: place, variables: variables)
                _ = visit(comparison.right, in: place, variables: variables)
            }
        }

        /// Visits an expression; returns the place its value's objects are, when it is a key
        /// path to objects of the model.
        @discardableResult
        mutating func visit(_ expression: ExpressionNode, in place: Place, variables: [String: Place]) -> Place? {
            switch expression.kind {
            case .constant:
                return nil
            case .evaluatedObject:
                return place
            case .variable(let name):
                return variables[name]
            case .keyPath(let base, let keys):
                let start: Place?
                if let base { start = visit(base, in: place, variables: variables) } else { start = place }
                guard let start else { return nil }
                return follow(keys[...], from: start, variables: variables)
            case .index(let base, let position):
                if case .expression(let index) = position { visit(index, in: place, variables: variables) }
                // An element of a collection is an object of the collection's place.
                return position == .size ? nil : visit(base, in: place, variables: variables)
            case .subquery(let collection, let variable, let predicate):
                guard let elements = visit(collection, in: place, variables: variables) else {
                    visit(predicate, in: place, variables: variables)
                    return nil
                }
                var inner = variables
                inner[variable] = elements
                // A bare key path inside reads the element too.
                visit(predicate, in: elements, variables: inner)
                return elements
            case .aggregate(let elements):
                for element in elements { visit(element, in: place, variables: variables) }
                return nil
            case .dictionary(let entries):
                for entry in entries { visit(entry.value, in: place, variables: variables) }
                return nil
            case .function(_, let arguments):
                for argument in arguments { visit(argument, in: place, variables: variables) }
                return nil
            case .functionExpression(let receiver, _, let arguments):
                visit(receiver, in: place, variables: variables)
                for argument in arguments { visit(argument, in: place, variables: variables) }
                return nil
            case .ternary(let condition, let then, let otherwise):
                visit(condition, in: place, variables: variables)
                let a = visit(then, in: place, variables: variables), b = visit(otherwise, in: place, variables: variables)
                return a?.path == b?.path ? a : nil
            case .cast(let value, _), .assignment(_, let value), .unary(_, let value):
                visit(value, in: place, variables: variables)
                return nil
            case .binary(_, let a, let b):
                visit(a, in: place, variables: variables)
                visit(b, in: place, variables: variables)
                return nil
            }
        }

        /// Follows `keys` from `start` while they are relationships (through collection
        /// operators), noting the path read; returns where they end when every key is a
        /// relationship.
        @discardableResult
        mutating func follow(_ keys: ArraySlice<String>, from start: Place, variables: [String: Place]) -> Place? {
            var entity = start.entity
            var path = start.path
            var reachedObjects = true
            for key in keys {
                if key.hasPrefix("@") { reachedObjects = false; continue }
                guard let relationship = entity.relationship(named: key), let destination = model.entity(named: relationship.destination) else {
                    reachedObjects = false
                    break
                }
                path.append(key)
                entity = destination
            }
            note(path)
            return reachedObjects ? Place(entity: entity, path: path) : nil
        }

        mutating func note(_ path: [String]) {
            guard !path.isEmpty else { return }
            let text = path.joined(separator: ".")
            if !paths.contains(text) { paths.append(text) }
        }
    }
}
