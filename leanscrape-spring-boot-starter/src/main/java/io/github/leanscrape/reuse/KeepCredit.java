package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderRecord;

/**
 * Whether keeping a kind's bodies pays: its credit, its rests and the try that follows
 * each (docs/design.md, step 8). Guarded by the {@link KeptBodies}.
 *
 * @author leanscrape
 */
final class KeepCredit {

	/**
	 * The share of a body, in percent, a rendering must copy from the kept one for
	 * keeping it to pay: measured, a tenth copied cost more than it saved, four fifths
	 * saved nearly half the rendering.
	 */
	private static final int COPIES_PAY_PERCENT = 25;

	/**
	 * A body kept for nothing costs twice what one kept for something earns: one scraper
	 * of two or three in turn that copies a little does not keep the body for the others
	 * (measured: zstd beside gzip 1.13 of whole, for gzip's 0.89).
	 */
	private static final int KEPT_FOR_NOTHING_COSTS = 2;

	/**
	 * The kind rests at this debt: three bodies in a row kept for nothing from the most
	 * credit.
	 */
	private static final int MAX_DEBT = 4;

	/** A long run of reuse does not hide a change of traffic for long. */
	private static final int MAX_CREDIT = 2;

	private static final int REST_RENDERINGS = 16;

	/**
	 * Measured against a rest fixed at 16: within the spread in time, but about three
	 * times the pool's chunks allocated where change is scattered (each try keeps a body
	 * again; docs/load/rest-doubling-ab.tsv).
	 */
	private static final int MAX_REST_RENDERINGS = 64;

	/** More bodies kept since the last rest than this: the next rest is the shortest. */
	private static final int LONG_KEEP_RENDERINGS = 64;

	private int credit = MAX_CREDIT;

	/** Bodies not kept since the last rest began. */
	private int rested;

	/** Bodies the last rest leaves unkept; 0 before any. */
	private int restLength;

	/** Bodies kept since the last rest, counted up to just past the long. */
	private int keptSinceRest;

	/** Whether the last rest's try goes on. */
	private boolean trying;

	/** The try's bodies counted as kept for something. */
	private int tryUsed;

	/** The try's bodies counted as kept for nothing. */
	private int tryUnused;

	// Whether the kind's next body is neither offered the kept one nor kept.
	boolean rests() {
		return this.rested < this.restLength;
	}

	// The last body of a rest begins a try.
	void notKept() {
		this.rested++;
		if (this.rested == this.restLength) {
			this.keptSinceRest = 0;
			this.trying = true;
			this.tryUsed = 0;
			this.tryUnused = 0;
		}
	}

	// Counts the body a new one replaces: counts where it could have been kept for
	// something (it had a body before it to copy from, or was used anyway).
	void kept(boolean counts, boolean used) {
		if (this.keptSinceRest <= LONG_KEEP_RENDERINGS) {
			this.keptSinceRest++;
		}
		if (!counts) {
			return;
		}
		if (this.trying) {
			countTry(used);
			return;
		}
		this.credit = used ? Math.min(this.credit + 1, MAX_CREDIT) : this.credit - KEPT_FOR_NOTHING_COSTS;
		if (this.credit <= -MAX_DEBT) {
			rest();
		}
	}

	private void countTry(boolean used) {
		if (used) {
			this.tryUsed++;
		}
		else {
			this.tryUnused++;
		}
		if (this.tryUnused == 2) {
			this.trying = false;
			rest();
		}
		else if (this.tryUsed == 2) {
			this.trying = false;
			this.credit = MAX_CREDIT;
		}
	}

	// As long as the first rest after a long keep, else twice the last.
	void rest() {
		this.rested = 0;
		this.restLength = (this.keptSinceRest > LONG_KEEP_RENDERINGS || this.restLength == 0) ? REST_RENDERINGS
				: Math.min(2 * this.restLength, MAX_REST_RENDERINGS);
	}

	// Whether the rendering of a body copied enough for keeping the one it copied to pay.
	static boolean copiedEnough(PooledBody body) {
		RenderRecord record = body.record();
		return record != null && record.copiedBytes() * 100 >= body.length() * COPIES_PAY_PERCENT;
	}

}
