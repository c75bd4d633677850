extension BankDecoder {
    /// A `"sounds"` entry.
    mutating func sound(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankSound? {
        guard
            let fields = object(
                node, at: path, what: "sound '\(name)'", required: ["file"],
                optional: ["stream", "loop", "volume", "pitch", "bus", "attenuation", "priority", "virtualBehavior"])
        else { return nil }
        var file = ""
        if let written = string(fields, "file"), let fileNode = fields["file"] {
            switch BankFilePath.resolve(written, in: folder, options: options) {
            case .success(let resolved): file = resolved
            case .failure(let refusal): report(path.key("file"), at: fileNode.offset, refusal.reason)
            }
        }
        return BankSound(
            name: name, file: file,
            stream: bool(fields, "stream", default: false),
            loop: bool(fields, "loop", default: false),
            volumeDB: decibels(fields, "volume"),
            pitchCents: cents(fields, "pitch"),
            bus: reference(fields, "bus", as: .bus) ?? "master",
            attenuation: reference(fields, "attenuation", as: .attenuation),
            priority: integer(fields, "priority", default: 50, range: 0...100),
            virtualBehavior: choice(fields, "virtualBehavior", default: .kill))
    }
}
