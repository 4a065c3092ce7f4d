package io.github.leanscrape.reuse;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Compresses a kind's kept body by segment, copying those as they were in the coding's
 * last form, where enough are; else whole. Only a form by segment is kept, one per kind
 * and coding. Part of {@link KeptBodies}, under its lock.
 *
 * @author leanscrape
 */
final class KeptForms {

	private final KeptBodies owner;

	KeptForms(KeptBodies owner) {
		this.owner = owner;
	}

	// See KeptBodies.encode.
	PooledBody encode(PooledBody body, BodyKind kind, BodyEncoder encoder, long expectedSize) {
		int slot = encoder.coding().ordinal();
		KeptBody plain = null;
		KeptEncoding last = null;
		EncodedBody lastEncoded = null;
		synchronized (this.owner) {
			KeptKind entry = this.owner.entry(body.kind());
			KeptBody kept = (entry != null) ? entry.body() : null;
			if (entry != null && kept != null && kept.body == body) {
				plain = kept;
				last = entry.encodings[slot];
				if (last != null && last.encoded().body().tryRetain()) {
					lastEncoded = last.encoded();
				}
			}
		}
		if (plain == null) {
			return encoder.encode(body, kind, expectedSize);
		}
		EncodedBody encoded;
		@Nullable KeptEncoding next;
		// Whether the body was compared with one before it: a first body compressed by
		// segment is not yet kept for something.
		boolean compared;
		try {
			int[] copyFrom = null;
			double share;
			if (lastEncoded != null && last != null) {
				copyFrom = new int[plain.versions.length];
				share = match(plain.versions, last.versions(), body, copyFrom);
			}
			else {
				// Nothing to copy from in this coding: by segment where enough of the
				// body is as it was, so that the next body can copy.
				share = plain.unchangedShare;
			}
			compared = share >= 0;
			boolean segmented = encoder.compressesSegments() && share >= encoder.minReusedShare();
			encoded = encoder.encode(body, kind, expectedSize, segmented, lastEncoded, segmented ? copyFrom : null);
			try {
				next = segmented ? new KeptEncoding(encoded, plain.versions) : null;
			}
			catch (RuntimeException | Error ex) {
				// The caller never gets the compressed body: give it back.
				encoded.body().release();
				throw ex;
			}
			if (segmented) {
				// The kept form's reference, taken once nothing is left to allocate.
				encoded.body().retain();
			}
		}
		finally {
			if (lastEncoded != null) {
				lastEncoded.body().release();
			}
		}
		KeptEncoding replaced = null;
		synchronized (this.owner) {
			KeptKind entry = this.owner.entry(body.kind());
			// Not where the kind's body was dropped meanwhile: nothing would give the
			// form back. A newer body may copy it (equal versions are equal bytes).
			if (entry != null && entry.body() != null) {
				replaced = entry.encodings[slot];
				entry.encodings[slot] = next;
				if (next != null && compared) {
					plain.used = true;
				}
			}
			else {
				replaced = next;
			}
		}
		if (replaced != null) {
			replaced.release();
		}
		return encoded.body();
	}

	// Notes in copyFrom the last form's segment to copy, or -1; returns the share of the
	// body's bytes that can be copied.
	private static double match(long[] versions, long[] lastVersions, PooledBody body, int[] copyFrom) {
		SegmentMatcher sameVersion = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				return versions[segment] == lastVersions[earlier];
			}

		};
		long reusable = 0;
		for (int i = 0; i < copyFrom.length; i++) {
			copyFrom[i] = sameVersion.find(i, lastVersions.length);
			if (copyFrom[i] >= 0) {
				reusable += body.segmentEnd(i) - body.segmentStart(i);
			}
		}
		return (body.length() == 0) ? 1 : (double) reusable / body.length();
	}

}
