// Turns the compiler's symbol graphs into the public API listing checked in
// as api/public-api.txt: one line per public symbol, sorted, so a change to
// the surface shows as a plain diff. Run by Scripts/public-api; usage:
//   swift Scripts/api-digest.swift SYMBOLGRAPH_DIR MODULE...
import Foundation

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// `[String: Any]` access that names what was missing instead of trapping.
func field<T>(_ object: Any?, _ key: String, in file: String) throws -> T {
    guard let dictionary = object as? [String: Any], let value = dictionary[key] as? T else {
        throw Failure(description: "\(file): no '\(key)' of the expected type")
    }
    return value
}

func spelling(_ fragments: [[String: Any]]) -> String {
    fragments.compactMap { $0["spelling"] as? String }.joined()
        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}

func lines(module: String, directory: URL) throws -> [String] {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json") }
    guard !files.isEmpty else { throw Failure(description: "no symbol graph for \(module) in \(directory.path)") }
    var result: [String] = []
    for file in files {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        let graph = try JSONSerialization.jsonObject(with: data)
        let symbols: [[String: Any]] = try field(graph, "symbols", in: file)
        var names: [String: String] = [:]
        for symbol in symbols {
            let identifier: [String: Any] = try field(symbol, "identifier", in: file)
            let path: [String] = try field(symbol, "pathComponents", in: file)
            names[try field(identifier, "precise", in: file)] = path.joined(separator: ".")
        }
        for symbol in symbols {
            guard (symbol["accessLevel"] as? String) == "public" else { continue }
            let path: [String] = try field(symbol, "pathComponents", in: file)
            let declaration = spelling(symbol["declarationFragments"] as? [[String: Any]] ?? [])
            let extended = file == "\(module).symbols.json" ? "" : " (extends \(file.dropFirst(module.count + 1).dropLast(13)))"
            result.append("\(module).\(path.joined(separator: ".")): \(declaration)\(extended)")
        }
        let relationships: [[String: Any]] = try field(graph, "relationships", in: file)
        for relation in relationships where (relation["kind"] as? String) == "conformsTo" {
            guard let source = relation["source"] as? String, let owner = names[source] else { continue }
            let target = relation["targetFallback"] as? String ?? names[relation["target"] as? String ?? ""] ?? "?"
            result.append("\(module).\(owner): conforms to \(target)")
        }
    }
    return result
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let directory = arguments.first.map({ URL(fileURLWithPath: $0) }) else {
    FileHandle.standardError.write(Data("usage: api-digest.swift SYMBOLGRAPH_DIR MODULE...\n".utf8))
    exit(2)
}
do {
    var all: [String] = []
    for module in arguments.dropFirst() { all += try lines(module: module, directory: directory) }
    print(Set(all).sorted().joined(separator: "\n"))
} catch {
    FileHandle.standardError.write(Data("api-digest: \(error)\n".utf8))
    exit(1)
}
