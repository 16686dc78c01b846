// Reading the replay data that the C++ writer (src/io/replay.cpp) puts in the page: a JSON
// <script> with the model and per-frame scalars, and base64 little-endian 32-bit arrays in their
// own <script> elements (decoded straight into typed arrays, no JSON number parsing).

// Bytes of a base64 text (the browser's native decoder when it has one).
function decodeBase64(text) {
  const s = text.trim();
  if (s.length === 0) return new Uint8Array(0);
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s);
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; ++i) out[i] = bin.charCodeAt(i);
  return out;
}

// A typed array view of a base64 element (little-endian data: every browser host is).
function typedArray(doc, id, Type) {
  const el = doc.getElementById(id);
  if (!el) throw new Error(`replay data element #${id} is missing`);
  const bytes = decodeBase64(el.textContent);
  if (bytes.byteLength % 4 !== 0) throw new Error(`#${id}: length is not a multiple of 4 bytes`);
  return new Type(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/**
 * The replay in the page, or null when the page holds no data (the bare template).
 * Returns { meta, basePoses (nbodies*7), poses (nframes*nmoving*7), contacts (ncontacts*13),
 * contactOffsets (nframes+1) }.
 */
export function loadReplay(doc) {
  const metaEl = doc.getElementById('coulomb-replay-meta');
  if (!metaEl) return null;
  const meta = JSON.parse(metaEl.textContent);
  if (meta.format !== 'coulomb-replay') throw new Error('not a coulomb replay');
  const data = {
    meta,
    basePoses: typedArray(doc, 'coulomb-replay-base-poses', Float32Array),
    poses: typedArray(doc, 'coulomb-replay-poses', Float32Array),
    contacts: typedArray(doc, 'coulomb-replay-contacts', Float32Array),
    contactOffsets: typedArray(doc, 'coulomb-replay-contact-offsets', Uint32Array),
  };
  // Consistency of the arrays with the metadata.
  const nb = meta.body_names.length, nm = meta.moving.length, nf = meta.frame_count;
  const ps = meta.pose_stride, cs = meta.contact_stride;
  if (data.basePoses.length !== nb * ps) throw new Error('base poses do not match the bodies');
  if (data.poses.length !== nf * nm * ps) throw new Error('poses do not match frames x bodies');
  if (data.contactOffsets.length !== nf + 1) throw new Error('contact offsets do not match');
  if (data.contacts.length !== data.contactOffsets[nf] * cs) throw new Error('contacts length');
  return data;
}
