package import SoundEffects

/// A bus's `"effects"`: insert effects with their parameters by name, in the
/// bank's units (docs/banks.md, "Effects").
extension BankDecoder {
    /// The words of an effect's `"type"`.
    enum EffectType: String, CaseIterable {
        case parametricEQ, compressor, limiter, delay, reverb

        var kind: EffectKind {
            switch self {
            case .parametricEQ: .parametricEQ
            case .compressor: .compressor
            case .limiter: .limiter
            case .delay: .delay
            case .reverb: .reverb
            }
        }
    }

    /// `"effects": [{"type": "reverb", "rt60": 1.8, …}, …]` of bus `bus`.
    mutating func effects(_ fields: JSONFields, of bus: String) -> [BankEffect] {
        guard let node = fields["effects"] else { return [] }
        let path = fields.path.key("effects")
        guard let elements = listValue(node, at: path, what: "the effects of bus '\(bus)'") else { return [] }
        if elements.count > BankLimits.busEffects {
            report(path, at: node.offset, "bus '\(bus)' has \(elements.count) effects; at most \(BankLimits.busEffects)")
        }
        return elements.enumerated().compactMap { index, element in effect(element, at: path.index(index), of: bus) }
    }

    private mutating func effect(_ node: JSONNode, at path: JSONPath, of bus: String) -> BankEffect? {
        guard let type = typeWord(node, at: path, as: EffectType.self) else {
            _ = object(node, at: path, what: "an effect", required: ["type"])
            return nil
        }
        let kind = type.kind
        let infos = kind.parameters
        var keys = ["type"] + infos.map(\.name)
        if kind == .compressor { keys.append("sidechain") }
        guard let fields = object(node, at: path, what: "a \(kind.name) of bus '\(bus)'", optional: keys) else { return nil }
        var parameters = EffectParameters.defaults(for: kind)
        for info in infos {
            guard let valueNode = fields[info.name] else { continue }
            let at = path.key(info.name)
            if case .string(let text) = valueNode.value, let word = info.value(ofWord: text) {
                parameters.values[info.index] = word
                continue
            }
            if let value = numberValue(valueNode, at: at, range: info.bankRange, unit: info.bankUnit) {
                parameters.values[info.index] = Float(value) * info.bankScale
            }
        }
        let sidechain = reference(fields, "sidechain", as: .bus)
        return BankEffect(kind: kind, parameters: parameters, sidechain: sidechain)
    }

}

extension EffectParameterInfo {
    /// What a bank value is multiplied by to give the engine's: times the
    /// engine keeps in milliseconds are seconds in a bank, as every bank time.
    package var bankScale: Float { unit == "ms" ? 1000 : 1 }
    /// The unit a bank writes it in.
    package var bankUnit: String { unit == "ms" ? "seconds" : unit }
    /// Its range in the bank's unit.
    package var bankRange: ClosedRange<Double> { Double(minimum / bankScale)...Double(maximum / bankScale) }
}
