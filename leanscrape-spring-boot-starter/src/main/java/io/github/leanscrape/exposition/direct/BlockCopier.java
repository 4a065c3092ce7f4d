package io.github.leanscrape.exposition.direct;

import java.util.Arrays;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Copies, in one text rendering, the blocks of series whose bytes the last body offered
 * (the last of the same kind) already holds, and notes every block in the rendering's own
 * {@link BlockRecord} for the next one. What the format decides is recorded among a
 * block's values, so a body of the other text format, were it offered, would have only
 * the blocks both write alike copied.
 * <p>
 * A writer {@linkplain #begin begins} a block, {@linkplain #addValue adds} each value its
 * lines are written from (and anything else that can change, or that the format decides);
 * if the last body has a block of the same family and series (the same array, or the same
 * series at the same places of a newer one) and values (compared, never hashed), it
 * {@linkplain #copy copies} it, else writes it, then {@linkplain #end ends} it.
 *
 * @author leanscrape
 */
final class BlockCopier {

	/**
	 * How many blocks of the last body past the expected one are looked at for the block
	 * being written: the blocks come in the plan's order, so after families were added or
	 * removed the two bodies line up again a few blocks on. Farther on, the block is
	 * looked for by its family's name ({@link #find}).
	 */
	private static final int LOOK_AHEAD = 64;

	private final @Nullable PooledBody previousBody;

	private final @Nullable BlockRecord previous;

	private final BlockRecord current;

	/** The block of the last body expected next. */
	private int next;

	private @Nullable Family family;

	private Series @Nullable [] series;

	private int from;

	private int to;

	private long start;

	private int copied;

	/**
	 * Create the copier of one rendering.
	 * @param previousBody the last body offered, or {@code null}
	 * @param previous that body's record, or {@code null} when it has none this rendering
	 * can use
	 * @param current the rendering's own record, empty
	 */
	BlockCopier(@Nullable PooledBody previousBody, @Nullable BlockRecord previous, BlockRecord current) {
		this.previousBody = previousBody;
		this.previous = (previousBody != null) ? previous : null;
		this.current = current;
	}

	/**
	 * Begin a block; its values follow.
	 * @param family the family
	 * @param series the plan's array of the family's series
	 * @param from where in it the block starts
	 * @param to where in it the block ends
	 * @param position where the block's bytes start in the output
	 */
	void begin(Family family, Series[] series, int from, int to, long position) {
		this.family = family;
		this.series = series;
		this.from = from;
		this.to = to;
		this.start = position;
	}

	/**
	 * Add a value the block's lines are written from.
	 * @param value the value
	 */
	void addValue(double value) {
		this.current.addValue(Double.doubleToRawLongBits(value));
	}

	/**
	 * Add a value the block's lines are written from.
	 * @param value the value
	 */
	void addValue(long value) {
		this.current.addValue(value);
	}

	/**
	 * Copy the block from the last body if that body holds it, written from the same
	 * values, and end it; otherwise leave it to be written, then {@linkplain #end ended}.
	 * @param out the output
	 * @return the sample lines copied, or {@code -1} when the block must be written
	 */
	int copyIfUnchanged(ChunkedOutput out) {
		BlockRecord previous = this.previous;
		PooledBody previousBody = this.previousBody;
		if (previous == null || previousBody == null) {
			return -1;
		}
		int block = find(previous);
		if (block < 0) {
			return -1;
		}
		this.next = block + 1;
		long from = previous.starts[block];
		if (!previousBody.holds(from)) {
			// The last body of this kind is given back to the pool as this rendering
			// goes past it, and this block's bytes are gone already.
			return -1;
		}
		int valueStart = this.current.valueStart(this.current.blockCount);
		if (!Arrays.equals(this.current.values, valueStart, this.current.valueCount, previous.values,
				previous.valueStart(block), previous.valueEnds[block])) {
			return -1;
		}
		long length = previous.ends[block] - from;
		out.copy(previousBody, from, length);
		this.copied++;
		int lines = previous.lines[block];
		end(out.size(), lines);
		return lines;
	}

	/**
	 * Find the block being written among the last body's, from the one expected next.
	 * @param previous the last body's record
	 * @return the block, or {@code -1} when the last body has none of the same family,
	 * series and start
	 */
	private int find(BlockRecord previous) {
		int last = Math.min(previous.blockCount, this.next + LOOK_AHEAD);
		for (int block = this.next; block < last; block++) {
			if (isBeingWritten(previous, block)) {
				return block;
			}
		}
		Family family = this.family;
		if (family == null || last == previous.blockCount) {
			return -1;
		}
		// Farther on than a few families added or removed: many blocks this rendering
		// skips (a large family removed, or, in a body of the other text format, blocks
		// of series with exemplars or of gauge histograms) would otherwise leave every
		// block after them written. The blocks follow their families' names and, within
		// a family, their starts, so the block is found by bisection.
		int low = last;
		int high = previous.blockCount;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (isBefore(previous, middle, family)) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return (low < previous.blockCount && isBeingWritten(previous, low)) ? low : -1;
	}

	private boolean isBefore(BlockRecord previous, int block, Family family) {
		Family other = previous.families[block];
		if (other == null) {
			return false;
		}
		int order = other.name.compareTo(family.name);
		return (order != 0) ? order < 0 : previous.froms[block] < this.from;
	}

	private boolean isBeingWritten(BlockRecord previous, int block) {
		if (previous.families[block] != this.family || previous.froms[block] != this.from
				|| previous.tos[block] != this.to) {
			return false;
		}
		Series[] kept = previous.series[block];
		Series[] series = this.series;
		if (kept == series) {
			return true;
		}
		if (kept == null || series == null) {
			return false;
		}
		// Series were added to the family or removed since: its series array is new, and
		// a block is the same where it holds the same series (those before the first
		// added or removed).
		for (int i = this.from; i < this.to; i++) {
			if (kept[i] != series[i]) {
				return false;
			}
		}
		return true;
	}

	/**
	 * End the block, copied or written.
	 * @param position where the block's bytes end in the output
	 * @param lines the sample lines in the block
	 */
	void end(long position, int lines) {
		Family family = this.family;
		Series[] series = this.series;
		if (family == null || series == null) {
			throw new IllegalStateException("No block begun");
		}
		this.current.addBlock(family, series, this.from, this.to, this.start, position, lines);
		this.family = null;
		this.series = null;
	}

	/**
	 * Return how many blocks this rendering copied.
	 * @return the blocks copied
	 */
	int copied() {
		return this.copied;
	}

}
