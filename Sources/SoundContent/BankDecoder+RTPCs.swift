extension BankDecoder {
    /// The words of an RTPC binding's `"target"`.
    enum RTPCTargetType: String, CaseIterable {
        case volume, pitch, lowPass, busVolume, auxSendVolume

        /// The target parameter's range and unit (the curve's `y`).
        var range: (ClosedRange<Double>, String) {
            switch self {
            case .volume, .busVolume, .auxSendVolume: (BankLimits.volumeDB, "dB")
            case .pitch: (BankLimits.pitchCents, "cents")
            case .lowPass: (BankLimits.lowPassHz, "Hz")
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
        let objectKeys = type == .busVolume ? ["bus"] : type == nil ? ["sound", "container", "bus"] : ["sound", "container"]
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
        }
        let (range, unit) = type.range
        let mapping = fields["curve"].flatMap {
            curve($0, at: path.key("curve"), xRange: BankLimits.rtpcValue, xUnit: "(RTPC value)", yRange: range, yUnit: unit)
        }
        guard let target, let mapping else { return nil }
        return RTPCBinding(target: target, curve: mapping)
    }
}
