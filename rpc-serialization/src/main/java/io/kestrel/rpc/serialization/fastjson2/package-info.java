/** The fastjson2 serialization (wire id 6), using fastjson2's binary JSONB format with an allowlist-checked autotype hook. */
package io.kestrel.rpc.serialization.fastjson2;
