package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderRecord;

/**
 * Whether keeping the bodies of one kind pays, from what became of its last ones. A body
 * kept for something earns a credit of one (at most {@value #MAX_CREDIT}), one kept for
 * nothing costs two. A kind whose credit falls to {@code -}{@value #MAX_DEBT} (fewer than
 * two of three bodies kept for something) rests, since comparing with a kept body and
 * writing beside it costs every rendering, in every coding, some time: its next
 * {@value #REST_RENDERINGS} bodies (twice as many after each rest that follows a short
 * try, up to {@value #MAX_REST_RENDERINGS}) are written and compressed whole and not
 * kept. The first body kept after a rest starts again from the most credit. Guarded by
 * the {@link KeptBodies} that holds it.
 *
 * @author leanscrape
 */
final class KeepCredit {

	/**
	 * The share of a body, in percent, that a rendering must copy from the kept one for
	 * keeping it to pay: measured, a tenth copied cost more than it saved, four fifths
	 * saved nearly half the rendering.
	 */
	private static final int COPIES_PAY_PERCENT = 25;

	/**
	 * The debt at which a kind rests. A body kept for nothing costs twice what one kept
	 * for something earns: one scraper of two or three in turn that copies a little does
	 * not keep the body for the others, which would pay more than it saves (measured:
	 * zstd beside gzip 1.13 of whole, for gzip's 0.89).
	 */
	private static final int MAX_DEBT = 4;

	/**
	 * How many more bodies kept for something than for nothing a kind remembers: a long
	 * run of reuse does not hide a change of traffic for long.
	 */
	private static final int MAX_CREDIT = 2;

	/** How many bodies of a resting kind are not kept before it tries again, at first. */
	private static final int REST_RENDERINGS = 16;

	/** How many bodies of a kind that rests again and again are not kept, at most. */
	private static final int MAX_REST_RENDERINGS = 64;

	/**
	 * How many bodies a kind must have kept after a rest, more than this, for its next
	 * rest to be as short as the first.
	 */
	private static final int LONG_KEEP_RENDERINGS = 64;

	private int credit = MAX_CREDIT;

	/** Whether the kind rests, or rested and has kept no body since. */
	private boolean resting;

	/** How many bodies were not kept since the kind began to rest. */
	private int rested;

	/** How many bodies the current or last rest leaves unkept; 0 before any. */
	private int restLength;

	/**
	 * How many bodies were kept since the last rest, counted up to just past the long.
	 */
	private int keptSinceRest;

	/**
	 * Return whether the kind rests now: its next body is neither offered the kept one
	 * nor kept.
	 * @return whether it rests
	 */
	boolean rests() {
		return this.resting && this.rested < this.restLength;
	}

	/**
	 * Count a body not kept while the kind rests.
	 */
	void notKept() {
		this.rested++;
	}

	/**
	 * Count a body kept in place of the last one, and what became of that one; the first
	 * after a rest starts again from the most credit.
	 * @param counts whether the last one could have been kept for something (not the
	 * first body of a kind, with nothing before it to copy from, unless it was used
	 * anyway)
	 * @param used whether it was kept for something
	 */
	void kept(boolean counts, boolean used) {
		if (this.resting) {
			this.resting = false;
			this.credit = MAX_CREDIT;
			this.keptSinceRest = 0;
			return;
		}
		if (this.keptSinceRest <= LONG_KEEP_RENDERINGS) {
			this.keptSinceRest++;
		}
		if (!counts) {
			return;
		}
		this.credit = used ? Math.min(this.credit + 1, MAX_CREDIT) : this.credit - 2;
		if (this.credit <= -MAX_DEBT) {
			rest();
		}
	}

	/**
	 * Let the kind rest: as long as the first time when it kept bodies long enough since
	 * its last rest, else twice as long as its last rest.
	 */
	void rest() {
		this.resting = true;
		this.rested = 0;
		this.restLength = (this.keptSinceRest > LONG_KEEP_RENDERINGS || this.restLength == 0) ? REST_RENDERINGS
				: Math.min(2 * this.restLength, MAX_REST_RENDERINGS);
	}

	/**
	 * Return whether a body's rendering copied enough of the body it was offered for
	 * keeping that one to pay.
	 * @param body the body
	 * @return whether it copied {@value #COPIES_PAY_PERCENT}% of its bytes
	 */
	static boolean copiedEnough(PooledBody body) {
		RenderRecord record = body.record();
		return record != null && record.copiedBytes() * 100 >= body.length() * COPIES_PAY_PERCENT;
	}

}
