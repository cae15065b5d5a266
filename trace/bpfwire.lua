-- SPDX-License-Identifier: GPL-2.0-only
-- Wireshark dissector for the bpfwire wire format (common/wire.h, versions 1 to 3).
--
--   tshark -X lua_script:trace/bpfwire.lua -r CAPTURE -Y bpfwire \
--          -T fields -e bpfwire.sender -e bpfwire.seq -e bpfwire.check_good
--
-- It claims UDP ports in the preference bpfwire.ports (7000-7099, where the
-- scenarios send; this takes them from RX/AFS) and, on any other port, runs
-- as a heuristic on the magic. Every field is big-endian; the check is FNV-1a
-- 32 over the header (check = 0) and the payload, recomputed here.
-- Version 2 (56-byte header) adds flags, key id, n_events, epoch and the
-- SipHash-2-4 tag (little-endian); the tag is shown, not verified: that
-- takes the key, which bpfwire-recv --key-file has and a capture must not.
-- Version 3 is v2's header over an AES-128-CTR payload: the
-- header is decoded, the payload shown as "Encrypted payload", and nothing
-- is decrypted (the key is the receiver's).

local p = Proto("bpfwire", "bpfwire telemetry")

local types = { [1] = "exec", [2] = "open", [3] = "test" }

local f = {
	magic       = ProtoField.uint32("bpfwire.magic", "Magic", base.HEX),
	version     = ProtoField.uint8("bpfwire.version", "Version", base.DEC),
	type        = ProtoField.uint8("bpfwire.type", "Event type", base.DEC, types),
	hdr_len     = ProtoField.uint16("bpfwire.hdr_len", "Header length", base.DEC),
	sender      = ProtoField.uint32("bpfwire.sender", "Sender id", base.DEC),
	payload_len = ProtoField.uint32("bpfwire.payload_len", "Payload length", base.DEC),
	seq         = ProtoField.uint64("bpfwire.seq", "Sequence", base.DEC),
	timestamp   = ProtoField.uint64("bpfwire.timestamp", "Sender timestamp (ns, bpf_ktime_get_ns)", base.DEC),
	check       = ProtoField.uint32("bpfwire.check", "Check (FNV-1a 32)", base.HEX),
	check_good  = ProtoField.bool("bpfwire.check_good", "Check good"),
	reserved    = ProtoField.uint32("bpfwire.reserved", "Reserved", base.HEX),
	v2          = ProtoField.bool("bpfwire.v2", "Wire format v2"),
	v3          = ProtoField.bool("bpfwire.v3", "Wire format v3 (v2's header, encrypted payload)"),
	flags       = ProtoField.uint8("bpfwire.flags", "Flags", base.HEX),
	signed      = ProtoField.bool("bpfwire.flags.signed", "Signed (SipHash-2-4 tag)", 8, nil, 0x01),
	encrypted   = ProtoField.bool("bpfwire.flags.encrypted", "Encrypted (AES-128-CTR payload)", 8, nil, 0x02),
	key_id      = ProtoField.uint8("bpfwire.key_id", "Key id", base.DEC),
	n_events    = ProtoField.uint16("bpfwire.n_events", "Events", base.DEC),
	epoch       = ProtoField.uint64("bpfwire.epoch", "Sender epoch", base.HEX),
	tag         = ProtoField.bytes("bpfwire.tag", "Tag (SipHash-2-4, little-endian)"),
	pid         = ProtoField.uint32("bpfwire.pid", "PID (tgid)", base.DEC),
	uid         = ProtoField.uint32("bpfwire.uid", "UID", base.DEC),
	comm        = ProtoField.string("bpfwire.comm", "Command"),
	path_len    = ProtoField.uint16("bpfwire.path_len", "Path length", base.DEC),
	path        = ProtoField.string("bpfwire.path", "Path"),
	payload     = ProtoField.bytes("bpfwire.payload", "Payload"),
	enc_payload = ProtoField.bytes("bpfwire.encrypted_payload", "Encrypted payload"),
}
p.fields = { f.magic, f.version, f.type, f.hdr_len, f.sender, f.payload_len, f.seq,
	f.timestamp, f.check, f.check_good, f.reserved, f.v2, f.v3, f.flags, f.signed,
	f.encrypted, f.key_id, f.n_events, f.epoch, f.tag, f.pid, f.uid, f.comm, f.path_len,
	f.path, f.payload, f.enc_payload }

local e_bad_check = ProtoExpert.new("bpfwire.check.bad", "bpfwire check does not match",
	expert.group.CHECKSUM, expert.severity.ERROR)
local e_short = ProtoExpert.new("bpfwire.short", "bpfwire datagram shorter than its lengths say",
	expert.group.MALFORMED, expert.severity.ERROR)
p.experts = { e_bad_check, e_short }

p.prefs.ports = Pref.range("UDP ports", "7000-7099", "UDP ports decoded as bpfwire", 65535)

local MAGIC = 0x42505757
local HDR_LEN = 40
local HDR_LEN_V2 = 56

-- FNV-1a 32 without 64-bit integers: h * 16777619 = h * 403 + (h << 24), mod 2^32.
-- In v2 the tag (bytes 48-55) counts as 0 too.
local function fnv1a(tvb, n, v2)
	local h = 2166136261
	for i = 0, n - 1 do
		local b = tvb(i, 1):uint()
		if (i >= 32 and i < 36) or (v2 and i >= 48 and i < 56) then b = 0 end
		h = bit.bxor(h, b) % 4294967296
		h = (h * 403 + bit.lshift(h, 24) % 4294967296) % 4294967296
	end
	return h
end

-- v2's fields after v1's first 36 bytes (v3 has the same header).
local function add_v2(t, tvb, ver)
	t:add(ver == 3 and f.v3 or f.v2, true):set_generated()
	local ft = t:add(f.flags, tvb(36, 1))
	ft:add(f.signed, tvb(36, 1))
	ft:add(f.encrypted, tvb(36, 1))
	t:add(f.key_id, tvb(37, 1))
	t:add(f.n_events, tvb(38, 2))
	t:add(f.epoch, tvb(40, 8))
	t:add(f.tag, tvb(48, 8))
end

-- n events back to back (v1: exactly one), each 28 bytes plus its path.
local function add_events(t, pl, plen, n)
	local off = 0
	for _ = 1, n do
		if off + 28 > plen then return end
		local e = t:add(p, pl(off, 28), "Event")
		e:add(f.pid, pl(off, 4))
		e:add(f.uid, pl(off + 4, 4))
		e:add(f.comm, pl(off + 8, 16))
		e:add(f.path_len, pl(off + 24, 2))
		local k = pl(off + 24, 2):uint()
		if off + 28 + k > plen then return end
		if k > 0 then
			e:add(f.path, pl(off + 28, k))
		end
		off = off + 28 + k
	end
end

local function dissect(tvb, pinfo, tree)
	local len = tvb:len()
	if len < HDR_LEN or tvb(0, 4):uint() ~= MAGIC then
		return 0
	end
	local ver = tvb(4, 1):uint()
	-- v2's header layout: v2, and v3 over it
	local v2 = (ver == 2 or ver == 3) and len >= HDR_LEN_V2
	pinfo.cols.protocol = "bpfwire"
	local t = tree:add(p, tvb(), "bpfwire")
	t:add(f.magic, tvb(0, 4))
	t:add(f.version, tvb(4, 1))
	t:add(f.type, tvb(5, 1))
	t:add(f.hdr_len, tvb(6, 2))
	t:add(f.sender, tvb(8, 4))
	t:add(f.payload_len, tvb(12, 4))
	t:add(f.seq, tvb(16, 8))
	t:add(f.timestamp, tvb(24, 8))
	local ct = t:add(f.check, tvb(32, 4))
	local n = 1
	if v2 then
		add_v2(t, tvb, ver)
		n = tvb(38, 2):uint()
	else
		t:add(f.reserved, tvb(36, 4))
	end

	local hdr_len = tvb(6, 2):uint()
	local plen = tvb(12, 4):uint()
	local total = hdr_len + plen
	if hdr_len < (v2 and HDR_LEN_V2 or HDR_LEN) or total > len then
		t:add_proto_expert_info(e_short)
		return len
	end
	local good = fnv1a(tvb, total, v2) == tvb(32, 4):uint()
	t:add(f.check_good, good):set_generated()
	if not good then
		ct:add_proto_expert_info(e_bad_check)
	end

	local ty = tvb(5, 1):uint()
	local enc = v2 and ver == 3
	if enc then
		-- Ciphertext: shown as bytes, never read as events.
		if plen > 0 then
			t:add(f.enc_payload, tvb(hdr_len, plen))
		end
	elseif (ty == 1 or ty == 2) and plen >= 28 then
		add_events(t, tvb(hdr_len, plen), plen, n)
	elseif plen > 0 then
		t:add(f.payload, tvb(hdr_len, plen))
	end
	local v = ""
	if enc then
		v = string.format(" v3 encrypted epoch 0x%s", tvb(40, 8):uint64():tohex())
	elseif v2 then
		v = string.format(" v2 %s epoch 0x%s", tvb(36, 1):uint() % 2 == 1 and "signed" or "unsigned",
			tvb(40, 8):uint64():tohex())
	end
	pinfo.cols.info = string.format("bpfwire%s %s sender %u seq %s", v, types[ty] or tostring(ty),
		tvb(8, 4):uint(), tostring(tvb(16, 8):uint64()))
	return len
end

p.dissector = dissect

local udp_port = DissectorTable.get("udp.port")
local registered
local function register_ports()
	if registered then udp_port:remove(registered, p) end
	registered = p.prefs.ports
	udp_port:add(registered, p)
end
p.prefs_changed = register_ports
register_ports()

p:register_heuristic("udp", function(tvb, pinfo, tree)
	return dissect(tvb, pinfo, tree) > 0
end)
