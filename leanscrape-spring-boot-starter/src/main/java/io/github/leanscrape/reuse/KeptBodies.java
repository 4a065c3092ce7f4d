package io.github.leanscrape.reuse;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.compression.GzipSegmentReader;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderRecord;
import io.github.leanscrape.reuse.SegmentVersions.GzipStandIn;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The one owner of what is kept between scrapes. Per kind (format and name filter): the
 * last plain body, whose unchanged blocks of series the next rendering copies (or the
 * next of the other text format, where that kind has no body of its own or its own is the
 * older), with a version per segment (equal versions mean equal bytes); where nothing
 * else holds it, the next rendering of its kind {@linkplain #take takes} it, to give it
 * back to the pool as it goes past it ({@link ReplacedBody}). Per content coding: the
 * last compressed form and the versions it encodes, copied for unchanged segments. A
 * coding compresses by segment only when enough can be copied
 * ({@link BodyEncoder#minReusedShare()}), else whole, retrying every
 * {@value #RETRY_AFTER_WHOLE}th body. A body is kept for something when a coding
 * compressed it by segment or the next rendering copied {@value #COPIES_PAY_PERCENT}% of
 * it; a kind whose bodies are kept for nothing too often rests ({@link KeepCredit}): its
 * bodies are written and compressed whole and not kept for a while. What is kept stays as
 * it is, so that the pool does not refill when the kind keeps again. Where a kind's body
 * is dropped to make room for a rendering of another ({@link #makeRoomFor}), its gzip
 * form by segment stands in for it: the next body is compared with it by inflating its
 * segments, and its unchanged segments are copied as they were. A kind dropped without
 * such a form is crowded (its gzip forms are compressed by segment even with nothing to
 * compare with), and rests when dropped again without one: two large kinds scraped in
 * turn beyond the memory limit would otherwise drop each other's body at every rendering,
 * and one of them pay for keeping bodies that are never used. At most {@value #MAX_KINDS}
 * kinds are kept; one idle for {@value #TIME_TO_LIVE_MINUTES} minutes is dropped at the
 * next scrape.
 *
 * @author leanscrape
 */
public final class KeptBodies {

	private static final int MAX_KINDS = 4;

	private static final int TIME_TO_LIVE_MINUTES = 5;

	private static final long TIME_TO_LIVE_NANOS = TimeUnit.MINUTES.toNanos(TIME_TO_LIVE_MINUTES);

	/**
	 * How many bodies of a kind a coding compresses whole, having found too little to
	 * copy, before it tries segments again.
	 */
	private static final int RETRY_AFTER_WHOLE = 16;

	/**
	 * The share of a body, in percent, that a rendering must copy from the kept one for
	 * keeping it to pay: measured, a tenth copied cost more than it saved, four fifths
	 * saved nearly half the rendering.
	 */
	private static final int COPIES_PAY_PERCENT = 25;

	private static final ContentCoding[] CODINGS = ContentCoding.values();

	private static final int GZIP_SLOT = ContentCoding.GZIP.ordinal();

	private final boolean enabled;

	private final SegmentVersions segmentVersions = new SegmentVersions();

	/** What is kept for each kind, least recently rendered first; guarded by this. */
	private final Map<BodyKind, KeptKind> entries = new LinkedHashMap<>(8, 0.75f, true);

	private final LongSupplier nanoClock;

	/**
	 * Create the kept bodies.
	 * @param enabled whether to keep anything
	 */
	public KeptBodies(boolean enabled) {
		this(enabled, System::nanoTime);
	}

	/**
	 * Create the kept bodies on a clock of their own, for tests.
	 * @param enabled whether to keep anything
	 * @param nanoClock the clock of {@link System#nanoTime()}'s kind that kept bodies
	 * expire by
	 */
	KeptBodies(boolean enabled, LongSupplier nanoClock) {
		this.enabled = enabled;
		this.nanoClock = nanoClock;
	}

	/**
	 * Open the lease of one rendering of a kind: it takes the kind's last body where
	 * nothing else holds it ({@link #take}), and is closed in every case.
	 * @param kind the kind, uncompressed
	 * @return the lease
	 */
	public RenderLease lease(BodyKind kind) {
		return new RenderLease(this, kind, take(kind));
	}

	/**
	 * Give back what is kept, for a rendering of a kind that waits for memory.
	 * @param kind the kind of the rendering
	 * @param what how much to give back
	 */
	public void shed(BodyKind kind, Shed what) {
		switch (what) {
			case OTHER_KINDS_BODIES -> makeRoomFor(kind);
			case OTHER_KINDS_STAND_INS -> dropStandInsFor(kind);
			case EVERYTHING -> forgetAll();
		}
	}

	/**
	 * Return the last plain body of a kind, for a rendering to copy from, with a
	 * reference the caller must release ({@link KeptBody#release()}).
	 * @param kind the kind, uncompressed
	 * @return the kept body, or {@code null}
	 */
	@Nullable KeptBody previous(BodyKind kind) {
		return lastBody(kind, false);
	}

	/**
	 * Take the last plain body of a kind out of what is kept, for the rendering that
	 * replaces it to read as it writes and give back to the pool as it goes
	 * ({@link ReplacedBody}): only where what is kept holds the body's only reference,
	 * which it {@linkplain PooledBody#claim() claims}, so that no reader, cache or other
	 * rendering holds it or can take it. The caller owns that reference and must release
	 * it, or {@linkplain #giveBack give it back}; the kind's compressed forms stay,
	 * unless a rendering of another kind drops them for room meanwhile
	 * ({@link #makeRoomFor}).
	 * @param kind the kind, uncompressed
	 * @return the kept body, or {@code null} where none can be taken
	 */
	@Nullable KeptBody take(BodyKind kind) {
		return lastBody(kind, true);
	}

	private @Nullable KeptBody lastBody(BodyKind kind, boolean take) {
		if (!this.enabled) {
			return null;
		}
		List<KeptKind> expired = new ArrayList<>(0);
		KeptBody plain = null;
		synchronized (this) {
			expire(this.nanoClock.getAsLong(), expired);
			KeptKind entry = this.entries.get(kind);
			// The first body after a rest is compared with the body kept before it.
			KeptBody kept = (entry != null) ? entry.body() : null;
			if (entry != null && kept != null && !entry.credit.rests()) {
				if (!take && kept.body.tryRetain()) {
					plain = kept;
				}
				else if (take && kept.body.claim()) {
					// Claimed, no reader (the cache's included) can take a reference.
					entry.take();
					plain = kept;
				}
			}
		}
		try {
			release(expired);
		}
		catch (RuntimeException | Error ex) {
			if (plain != null) {
				plain.release();
			}
			throw ex;
		}
		return plain;
	}

	/**
	 * Give back a body {@linkplain #take taken} and not read, where its rendering was
	 * rejected: kept again where nothing took its place, else released.
	 * @param kind the kind, uncompressed
	 * @param plain the body taken
	 */
	void giveBack(BodyKind kind, KeptBody plain) {
		synchronized (this) {
			KeptKind entry = this.entries.get(kind);
			if (entry != null && entry.endTaken(plain.body) && !plain.body.isReleased()) {
				plain.body.unclaim();
				entry.keep(plain);
				return;
			}
		}
		plain.release();
	}

	/**
	 * Return the last plain body of the other text format with the same name filter, for
	 * a rendering of a text kind with no body of its own to copy from (its first, or one
	 * whose body was dropped for room): a block of series is written alike in text 0.0.4
	 * and OpenMetrics wherever the values it was written from are equal, so the renderer
	 * copies from either. Offered only where the other kind's last rendering copied
	 * {@value #COPIES_PAY_PERCENT}% of its body: where change is scattered over every
	 * block, noting and comparing every block to copy a tenth costs what it saves. Then
	 * to a resting kind too, which keeps nothing of its own: the other body is kept
	 * anyway. Nothing while the other kind rests. With a reference the caller must
	 * release.
	 * @param kind the kind, uncompressed
	 * @return the other format's kept body, or {@code null}
	 */
	@Nullable PooledBody otherFormatsBody(BodyKind kind) {
		return otherFormatsBody(kind, false);
	}

	/**
	 * Return the last plain body of the other text format with the same name filter, as
	 * {@link #otherFormatsBody(BodyKind)} does, where it was rendered after the kind's
	 * own last body: for the blocks of a rendering that took its own ({@link #take}),
	 * which the other body holds with fewer changes since (scraped in turn, its own is a
	 * turn older).
	 * @param kind the kind, uncompressed
	 * @return the other format's kept body, or {@code null}
	 */
	@Nullable PooledBody newerOtherFormatsBody(BodyKind kind) {
		return otherFormatsBody(kind, true);
	}

	private @Nullable PooledBody otherFormatsBody(BodyKind kind, boolean newerOnly) {
		PrometheusOutputFormat format = kind.format();
		if (!this.enabled || format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			return null;
		}
		PrometheusOutputFormat other = (format == PrometheusOutputFormat.CONTENT_TYPE_004)
				? PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 : PrometheusOutputFormat.CONTENT_TYPE_004;
		synchronized (this) {
			KeptKind sibling = null;
			KeptKind own = null;
			// Looked up without get(), which would count as a rendering of the other kind
			// in the order kinds are evicted in.
			for (Map.Entry<BodyKind, KeptKind> each : this.entries.entrySet()) {
				BodyKind kept = each.getKey();
				if (kept.format() == other && Objects.equals(kept.includedNames(), kind.includedNames())) {
					sibling = each.getValue();
				}
				else if (newerOnly && kept.equals(kind)) {
					own = each.getValue();
				}
			}
			if (sibling == null || sibling.credit.rests()
					|| (newerOnly && (own == null || sibling.renderedNanos - own.renderedNanos <= 0))) {
				return null;
			}
			KeptBody plain = sibling.body();
			if (plain == null || !copiedAQuarter(plain.body)) {
				return null;
			}
			return plain.body.tryRetain() ? plain.body : null;
		}
	}

	/**
	 * Return where the versions of segments come from, for a rendering that versions its
	 * segments as it writes them ({@link ReplacedBody}).
	 * @return the segment versions
	 */
	SegmentVersions segmentVersions() {
		return this.segmentVersions;
	}

	/**
	 * Return whether the next body of a kind will be kept, for its rendering to note what
	 * the one after it can copy: not while the kind rests.
	 * @param kind the kind, uncompressed
	 * @return whether to note what can be copied
	 */
	boolean keeps(BodyKind kind) {
		if (!this.enabled) {
			return false;
		}
		synchronized (this) {
			KeptKind entry = this.entries.get(kind);
			return entry == null || !entry.credit.rests();
		}
	}

	/**
	 * Keep a new body of a kind in place of the last one, giving each of its segments a
	 * version: that of the last body's segment with the same bytes, or a new one, and
	 * count the last one as kept for something or for nothing; while the kind rests, keep
	 * nothing.
	 * @param kind the kind, uncompressed
	 * @param body the new body; this object takes a reference of its own
	 * @param previous the body the rendering was offered, or {@code null}
	 */
	void rendered(BodyKind kind, PooledBody body, @Nullable KeptBody previous) {
		if (!this.enabled) {
			return;
		}
		DroppedBody standsIn = null;
		EncodedBody form = null;
		synchronized (this) {
			KeptKind entry = this.entries.get(kind);
			if (entry != null && entry.credit.rests()) {
				entry.credit.notKept();
				entry.renderedNanos = this.nanoClock.getAsLong();
				entry.clearTaken();
				return;
			}
			DroppedBody last = (entry != null) ? entry.standIn() : null;
			EncodedBody lastForm = (last != null) ? last.gzip.encoded : null;
			if (previous == null && entry != null && last != null && lastForm != null
					&& entry.encodings[GZIP_SLOT] == last.gzip && lastForm.tryRetain()) {
				standsIn = last;
				form = lastForm;
			}
		}
		long[] versions = new long[body.segmentCount()];
		double share;
		if (standsIn != null && form != null) {
			try (GzipSegmentReader reader = new GzipSegmentReader()) {
				share = this.segmentVersions.version(body,
						new GzipStandIn(form, standsIn.gzip.versions, standsIn.segmentEnds, reader), versions);
			}
			finally {
				form.release();
			}
		}
		else {
			share = this.segmentVersions.version(body, previous, versions);
		}
		keep(kind, body, previous, false, true, versions, share);
	}

	/**
	 * Keep a new body of a kind in place of the last one, which its rendering
	 * {@linkplain #take took} and versioned the new body's segments against as it wrote
	 * them ({@link ReplacedBody}); while the kind rests, keep nothing.
	 * @param kind the kind, uncompressed
	 * @param body the new body; this object takes a reference of its own
	 * @param replaced the body taken, which the caller releases
	 * @param copiedFromIt whether the rendering copied its blocks from the body taken,
	 * not from the other text format's ({@link #newerOtherFormatsBody})
	 * @param versions the version of each of the new body's segments
	 * @param share the share of its bytes in segments as they were in the one taken
	 */
	void replaced(BodyKind kind, PooledBody body, KeptBody replaced, boolean copiedFromIt, long[] versions,
			double share) {
		if (this.enabled) {
			keep(kind, body, replaced, true, copiedFromIt, versions, share);
		}
	}

	private void keep(BodyKind kind, PooledBody body, @Nullable KeptBody previous, boolean taken, boolean copiedFromIt,
			long[] versions, double share) {
		// Room for every kind that can be dropped here, so that adding one, once it is
		// out of the map, never allocates.
		List<KeptKind> dropped = new ArrayList<>(MAX_KINDS + 1);
		// The body's reference is taken only where it is stored, after everything that
		// allocates: an OutOfMemoryError on the way leaves no reference behind.
		KeptBody plain = new KeptBody(body, versions, share);
		boolean copiesPay = previous != null && copiedFromIt && copiedAQuarter(body);
		KeptBody replaced = null;
		try {
			synchronized (this) {
				long now = this.nanoClock.getAsLong();
				expire(now, dropped);
				KeptKind entry = this.entries.get(kind);
				if (entry != null) {
					entry.clearTaken();
				}
				if (entry != null && entry.credit.rests()) {
					// Dropped for room (makeRoomFor) while this body was compared: the
					// rest that ordered holds, and this body is not kept.
					entry.credit.notKept();
				}
				else if (entry == null) {
					entry = new KeptKind();
					entry.keep(plain);
					this.entries.put(kind, entry);
					body.retain();
					if (this.entries.size() > MAX_KINDS) {
						// Each name filter is a kind of its own: a scraper asking
						// for many would otherwise have a body kept for each.
						dropped.add(removeEldest());
					}
				}
				else {
					DroppedBody before = entry.standIn();
					replaced = entry.keep(plain);
					body.retain();
					// The body taken by this rendering counts as the one replaced.
					KeptBody last = (replaced == null && taken) ? previous : replaced;
					if (copiesPay && last != null && previous == last) {
						last.used = true;
					}
					// A body with nothing before it to copy from counts only when
					// a coding used it: the first of a kind, or the first after a
					// rest. A body dropped for room counts as it would have.
					if (last != null) {
						entry.credit.kept(last.unchangedShare >= 0 || last.used, last.used);
					}
					else if (before != null) {
						entry.credit.kept(before.unchangedShare >= 0 || before.used, before.used);
					}
					else {
						entry.credit.kept(false, false);
					}
				}
				entry.renderedNanos = now;
			}
		}
		finally {
			// Expired or evicted kinds, and the body replaced, go back even where an
			// Error was thrown on the way.
			if (replaced != null) {
				replaced.release();
			}
			release(dropped);
		}
	}

	/**
	 * Return whether a body's rendering copied enough of the last body for copying to
	 * pay.
	 * @param body the body
	 * @return whether it copied {@value #COPIES_PAY_PERCENT}% of its bytes
	 */
	private static boolean copiedAQuarter(PooledBody body) {
		RenderRecord record = body.record();
		return record != null && record.copiedBytes() * 100 >= body.length() * COPIES_PAY_PERCENT;
	}

	/**
	 * Remove the kind least recently rendered, one without a body first (it rests after
	 * being dropped for room).
	 * @return its entry
	 */
	private KeptKind removeEldest() {
		Iterator<KeptKind> entries = this.entries.values().iterator();
		while (entries.hasNext()) {
			KeptKind entry = entries.next();
			if (entry.body() == null) {
				entries.remove();
				return entry;
			}
		}
		Iterator<KeptKind> eldest = this.entries.values().iterator();
		KeptKind entry = eldest.next();
		eldest.remove();
		return entry;
	}

	/**
	 * Compress a body, copying the compressed bytes of the segments unchanged since the
	 * last body of its kind in that coding, and keep the result for the next. A body that
	 * is not the kept one of its kind (a newer one was rendered meanwhile, or reuse is
	 * off) is compressed whole.
	 * @param body the plain body
	 * @param kind the kind of the compressed body
	 * @param encoder the coding's encoder
	 * @param expectedSize the expected compressed size
	 * @return the compressed body, whose reference the caller owns
	 */
	public PooledBody encode(PooledBody body, BodyKind kind, BodyEncoder encoder, long expectedSize) {
		if (!this.enabled) {
			return encoder.encode(body, kind, expectedSize);
		}
		int slot = encoder.coding().ordinal();
		KeptBody plain = null;
		KeptEncoding last = null;
		EncodedBody lastEncoded = null;
		boolean crowded = false;
		synchronized (this) {
			KeptKind entry = this.entries.get(body.kind());
			KeptBody kept = (entry != null) ? entry.body() : null;
			if (entry != null && kept != null && kept.body == body) {
				plain = kept;
				crowded = entry.crowded;
				last = entry.encodings[slot];
				if (last != null && last.encoded != null && last.encoded.tryRetain()) {
					lastEncoded = last.encoded;
				}
			}
		}
		if (plain == null) {
			return encoder.encode(body, kind, expectedSize);
		}
		EncodedBody encoded;
		KeptEncoding next;
		// Whether the body was compared with one before it: a first body compressed by
		// segment is not yet kept for something.
		boolean compared;
		try {
			int[] copyFrom = null;
			double share;
			int wholeStreak = 0;
			if (lastEncoded != null && last != null) {
				copyFrom = new int[plain.versions.length];
				share = SegmentVersions.match(plain.versions, last.versions, body, copyFrom);
			}
			else if (last != null && last.measuredShare >= 0 && (last.wholeStreak + 1) % RETRY_AFTER_WHOLE != 0) {
				// Too little to copy the last time this coding looked: whole again.
				share = last.measuredShare;
				wholeStreak = last.wholeStreak + 1;
			}
			else {
				share = plain.unchangedShare;
			}
			// A crowded kind's gzip forms are compressed by segment even with nothing
			// to compare with, at about 2% in size, so that one can stand in for its
			// body the next time it is dropped for room (makeRoomFor).
			compared = share >= 0;
			boolean segmented = encoder.compressesSegments()
					&& (share >= encoder.minReusedShare() || (!compared && crowded && slot == GZIP_SLOT));
			encoded = encoder.encode(body, kind, expectedSize, segmented, lastEncoded, segmented ? copyFrom : null);
			try {
				double measured = (lastEncoded != null) ? share : ((last != null) ? last.measuredShare : -1);
				long[] plainEnds = (segmented && crowded && slot == GZIP_SLOT) ? segmentEnds(body) : null;
				next = new KeptEncoding(segmented ? encoded : null, plain.versions, plainEnds, measured,
						segmented ? 0 : wholeStreak);
			}
			catch (RuntimeException | Error ex) {
				// The caller never gets the compressed body: give it back.
				encoded.release();
				throw ex;
			}
			if (segmented) {
				// The kept form's reference, taken once nothing is left to allocate.
				encoded.retain();
			}
		}
		finally {
			if (lastEncoded != null) {
				lastEncoded.release();
			}
		}
		KeptEncoding replaced = null;
		synchronized (this) {
			KeptKind entry = this.entries.get(body.kind());
			// Not where the kind's body was dropped for room meanwhile (makeRoomFor):
			// nothing would give this back.
			if (entry != null && entry.body() != null) {
				replaced = entry.encodings[slot];
				entry.encodings[slot] = next;
				if (next.encoded != null && compared) {
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

	/**
	 * Drop what is kept for every kind but one, to make room for a rendering of that one.
	 * A kind whose body was sent in gzip segment by segment keeps that form, a tenth of
	 * the body or so, to stand in for it: its next body is compared with it segment by
	 * segment, inflating it. A kind dropped without such a form becomes crowded, so that
	 * its next gzip forms can stand in, and rests, keeping nothing for a while, when
	 * dropped again without one.
	 * @param kind the kind whose bodies stay
	 */
	void makeRoomFor(BodyKind kind) {
		// Room for all that can be dropped, so that adding to these lists never allocates
		// once something is out of its entry.
		List<KeptBody> plains = new ArrayList<>(MAX_KINDS);
		List<KeptEncoding> encodings = new ArrayList<>(MAX_KINDS * CODINGS.length);
		try {
			synchronized (this) {
				for (Map.Entry<BodyKind, KeptKind> kept : this.entries.entrySet()) {
					KeptKind entry = kept.getValue();
					if (kept.getKey().equals(kind) || entry.holding() == KeptKind.Holding.STAND_IN) {
						continue;
					}
					KeptBody plain = entry.body();
					KeptEncoding gzip = entry.encodings[GZIP_SLOT];
					long[] gzipEnds = null;
					if (plain != null && gzip != null && gzip.encoded != null) {
						// The form of this body, or of the one before it where a new body
						// was kept before its gzip form was made: a crowded kind's forms
						// know where their segments end.
						gzipEnds = (gzip.versions == plain.versions) ? segmentEnds(plain.body) : gzip.plainEnds;
					}
					boolean standsIn = gzip != null && gzip.encoded != null && gzipEnds != null
							&& gzipEnds.length == gzip.encoded.segmentCount();
					DroppedBody dropped = (plain != null && standsIn && gzip != null && gzipEnds != null)
							? new DroppedBody(gzip, gzipEnds, plain) : null;
					// Nothing below allocates.
					if (plain != null) {
						plains.add(entry.dropForRoom(dropped));
					}
					for (int i = 0; i < entry.encodings.length; i++) {
						KeptEncoding encoding = entry.encodings[i];
						if (encoding != null && !(standsIn && i == GZIP_SLOT)) {
							encodings.add(encoding);
							entry.encodings[i] = null;
						}
					}
					if (!standsIn && plain != null) {
						if (!entry.crowded) {
							// Its next gzip forms are compressed by segment, to stand in
							// for its body the next time (encode).
							entry.crowded = true;
						}
						else if (!entry.credit.rests()) {
							// A kind that already rests goes on with its rest.
							entry.credit.rest();
						}
					}
				}
			}
		}
		finally {
			for (KeptBody plain : plains) {
				plain.release();
			}
			for (KeptEncoding encoding : encodings) {
				encoding.release();
			}
		}
	}

	private static long[] segmentEnds(PooledBody body) {
		long[] ends = new long[body.segmentCount()];
		for (int i = 0; i < ends.length; i++) {
			ends[i] = body.segmentEnd(i);
		}
		return ends;
	}

	/**
	 * Drop the gzip forms that stand in for the bodies of every kind but one, dropped for
	 * room before, when making room for a rendering of that one has not made enough; each
	 * such kind rests.
	 * @param kind the kind whose bodies stay
	 */
	void dropStandInsFor(BodyKind kind) {
		List<KeptEncoding> encodings = new ArrayList<>(MAX_KINDS);
		try {
			synchronized (this) {
				for (Map.Entry<BodyKind, KeptKind> kept : this.entries.entrySet()) {
					KeptKind entry = kept.getValue();
					DroppedBody dropped = entry.standIn();
					if (dropped != null && !kept.getKey().equals(kind)) {
						entry.dropStandIn();
						if (entry.encodings[GZIP_SLOT] == dropped.gzip) {
							entry.encodings[GZIP_SLOT] = null;
							encodings.add(dropped.gzip);
						}
						if (!entry.credit.rests()) {
							// As a drop without a form to stand in: where a body and a
							// form do not fit beside a rendering, the kind would
							// otherwise compress by segment and note what can be copied
							// for nothing.
							entry.credit.rest();
						}
					}
				}
			}
		}
		finally {
			for (KeptEncoding encoding : encodings) {
				encoding.release();
			}
		}
	}

	/**
	 * Drop what is kept for every kind.
	 */
	public void forgetAll() {
		List<KeptKind> forgotten;
		synchronized (this) {
			forgotten = new ArrayList<>(this.entries.values());
			this.entries.clear();
		}
		release(forgotten);
	}

	/**
	 * Return how many pooled chunks the kept bodies hold, each counted once; a body taken
	 * by the rendering that replaces it counts for what it still holds.
	 * @return the chunks
	 */
	public long heldChunks() {
		List<PooledBody> plains = new ArrayList<>();
		List<PooledBody> encodings = new ArrayList<>();
		synchronized (this) {
			for (KeptKind entry : this.entries.values()) {
				KeptBody plain = entry.body();
				PooledBody taken = entry.taken();
				if (plain != null) {
					plains.add(plain.body);
				}
				if (taken != null) {
					// What the rendering that replaces it has not given back yet.
					plains.add(taken);
				}
				for (KeptEncoding encoding : entry.encodings) {
					if (encoding != null && encoding.encoded != null) {
						encodings.add(encoding.encoded.body());
					}
				}
			}
		}
		// Read outside this lock: a body's lock is held while it is compressed, which
		// takes this lock (PooledBody.encoded, then encode). A body released meanwhile
		// counts for nothing.
		long chunks = 0;
		for (PooledBody plain : plains) {
			// The plain body holds its compressed forms too.
			chunks += plain.heldChunks();
		}
		for (PooledBody encoded : encodings) {
			boolean counted = false;
			for (PooledBody plain : plains) {
				// A body released meanwhile (a taken one, its rendering failed) no
				// longer holds its forms.
				counted |= !plain.isReleased() && plain.holdsEncoded(encoded);
			}
			chunks += counted ? 0 : encoded.heldChunks();
		}
		return chunks;
	}

	/**
	 * Return how many kinds have a body kept.
	 * @return the kinds
	 */
	synchronized int keptKinds() {
		int kinds = 0;
		for (KeptKind entry : this.entries.values()) {
			kinds += (entry.body() != null) ? 1 : 0;
		}
		return kinds;
	}

	private void expire(long now, List<KeptKind> expired) {
		Iterator<KeptKind> entries = this.entries.values().iterator();
		while (entries.hasNext()) {
			KeptKind entry = entries.next();
			if (now - entry.renderedNanos > TIME_TO_LIVE_NANOS) {
				expired.add(entry);
				entries.remove();
			}
		}
	}

	private static void release(List<KeptKind> entries) {
		for (KeptKind entry : entries) {
			KeptBody plain = entry.body();
			if (plain != null) {
				plain.release();
			}
			for (KeptEncoding encoding : entry.encodings) {
				if (encoding != null) {
					encoding.release();
				}
			}
		}
	}

}
