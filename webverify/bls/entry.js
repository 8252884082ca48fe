// The page's BLS12-381 (webverify/verify.html, between its "bls bundle" markers): drand's
// bls-unchained-g1-rfc9380 signatures, a G1 point on H(u64(round)) under a G2 public key,
// verified by @noble/curves (MIT). build.sh bundles this file.
import { bls12_381 } from "@noble/curves/bls12-381";

// verify reports whether sig (48 bytes) is the beacon's signature of message (the bytes
// H(u64(round))) under pub (96 bytes); it never throws.
export function verify(sig, message, pub) {
  try {
    return bls12_381.verifyShortSignature(sig, message, pub);
  } catch (e) {
    return false;
  }
}
