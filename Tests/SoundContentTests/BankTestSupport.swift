import Foundation
import SoundContent
import Testing

/// Options for inline banks: their files are not on disk.
let noFileCheck = BankLoadOptions(checkFilesExist: false)

/// A small valid bank with the sections replaced or added by the caller
/// (each argument is the JSON text of one section's value).
func bankJSON(
    sounds: String = #"{"step": {"file": "step.wav"}, "theme": {"file": "theme.wav"}}"#,
    events: String = #"{"Play_Step": {"actions": [{"type": "play", "sound": "step"}]}}"#,
    extra: [String: String] = [:]
) -> String {
    var sections = [#""sounds": \#(sounds)"#, #""events": \#(events)"#]
    for (key, value) in extra.sorted(by: { $0.key < $1.key }) { sections.append(#""\#(key)": \#(value)"#) }
    return "{\n" + sections.joined(separator: ",\n") + "\n}"
}

/// Parses `json` as bank "test" in /banks/test.
func parse(_ json: String, options: BankLoadOptions = noFileCheck) -> Result<Bank, BankIssues> {
    BankParser.parse(Array(json.utf8), name: "test", folder: "/banks/test", options: options)
}

/// The issues parsing `json` reports (empty when it parses).
func issues(_ json: String, options: BankLoadOptions = noFileCheck) -> [BankIssue] {
    switch parse(json, options: options) {
    case .success: []
    case .failure(let failure): failure.issues
    }
}

/// Expects exactly one issue, at `path`, whose reason mentions every word of `mentions`.
func expectIssue(
    _ json: String, at path: String, mentioning mentions: [String], options: BankLoadOptions = noFileCheck,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = issues(json, options: options)
    #expect(found.count == 1, "expected one issue, got: \(found)", sourceLocation: sourceLocation)
    guard let issue = found.first else { return }
    #expect(issue.path == path, "issue: \(issue)", sourceLocation: sourceLocation)
    for word in mentions {
        #expect(issue.reason.contains(word), "'\(word)' missing from: \(issue.reason)", sourceLocation: sourceLocation)
    }
}

/// The successfully parsed bank, or a recorded failure listing the issues.
func parsed(_ json: String, options: BankLoadOptions = noFileCheck, sourceLocation: SourceLocation = #_sourceLocation)
    -> Bank?
{
    switch parse(json, options: options) {
    case .success(let bank): return bank
    case .failure(let failure):
        Issue.record("bank failed to parse:\n\(failure)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A fresh empty directory, removed by the caller.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "soundcontent-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
