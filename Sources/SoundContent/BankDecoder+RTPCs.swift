extension BankDecoder {
    /// The words of an RTPC binding's `"target"`.
    enum RTPCTargetType: String, CaseIterable {
        case volume, pitch, lowPass, busVolume, auxSendVolume, effect

        /// The target parameter's range and unit (the curve's `y`).
        var range: (ClosedRange<Double>, String) {
            switch self {
            case .volume, .busVolume, .auxSendVolume: (BankLimits.volumeDB, "dB")
            case .pitch: (BankLimits.pitchCents, "cents")
            case .lowPass: (BankLimits.lowPassHz, "Hz")
            // The parameter's own range is checked once the effect is known (BankCheck).
            case .effect: (BankLimits.rtpcValue, "(the parameter's unit)")
            }
        }
    }

    /// A `"rtpcs"` entry.
    mutating func rtpc(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankRTPC? {
        guard
            let fields = object(node, at: path, what: "RTPC '\(name)'", required: ["min", "max"],
                                optional: ["default", "bindings"])
        else { return nil }
        let any = BankLimits.rtpcValue
        let low = number(fields, "min", default: 0, range: any, unit: "")
        let high = number(fields, "max", default: 1, range: any, unit: "")
        guard low < high else {
            report(path.key("max"), at: fields["max"]?.offset ?? fields.offset,
                   "max \(high.formatted) must be greater than min \(low.formatted)")
            return nil
        }
        let value = number(fields, "default", default: low, range: low...high, unit: "")
        var bindings: [RTPCBinding] = []
        if let node = fields["bindings"], let list = listValue(node, at: path.key("bindings"), what: "bindings") {
            for (index, element) in list.enumerated() {
                if let binding = binding(element, at: path.key("bindings").index(index)) { bindings.append(binding) }
            }
        }
        return BankRTPC(name: name, range: low...high, defaultValue: value, bindings: bindings)
    }

    /// One RTPC binding: `{"target": "pitch", "sound": "engine", "curve": …}`.
    private mutating func binding(_ node: JSONNode, at path: JSONPath) -> RTPCBinding? {
        let type = typeWord(node, at: path, as: RTPCTargetType.self, key: "target")
        let objectKeys =
            switch type {
            case .busVolume: ["bus"]
            case .effect: ["bus", "effect", "parameter"]
            case nil: ["sound", "container", "bus", "effect", "parameter"]
            default: ["sound", "container"]
            }
        guard let fields = object(node, at: path, what: "an RTPC binding", required: ["target", "curve"],
                                  optional: objectKeys),
            let type
        else { return nil }
        let target: RTPCTarget?
        switch type {
        case .busVolume: target = reference(fields, "bus", as: .bus).map { .busVolume(bus: $0) }
        case .volume: target = objectTarget(fields).map { .volume(object: $0) }
        case .pitch: target = objectTarget(fields).map { .pitch(object: $0) }
        case .lowPass: target = objectTarget(fields).map { .lowPass(object: $0) }
        case .auxSendVolume: target = objectTarget(fields).map { .auxSendVolume(object: $0) }
        case .effect:
            let slot = integer(fields, "effect", default: 0, range: 0...(BankLimits.busEffects - 1))
            let parameter = name(fields, "parameter")
            if parameter == nil { report(path, at: fields.offset, "an effect binding names its \"parameter\"") }
            target = reference(fields, "bus", as: .bus).flatMap { bus in
                parameter.map { .effectParameter(bus: bus, effect: slot, parameter: $0) }
            }
        }
        let (range, unit) = type.range
        let mapping = fields["curve"].flatMap {
            curve($0, at: path.key("curve"), xRange: BankLimits.rtpcValue, xUnit: "(RTPC value)", yRange: range, yUnit: unit)
        }
        guard let target, let mapping else { return nil }
        return RTPCBinding(target: target, curve: mapping)
    }
}
