package io.github.leanscrape.exposition.direct;

import java.util.ArrayDeque;
import java.util.Arrays;

import io.github.leanscrape.exposition.RenderRecord;
import org.jspecify.annotations.Nullable;

/**
 * The blocks of series that a text rendering wrote, in order: for each, the family, the
 * plan's array of its series and where the block starts and ends in it, every value read
 * for them, and where their bytes lie in the body. Kept with the body, it lets the next
 * rendering with the same name filter copy an unchanged block ({@link BlockCopier}), in
 * either text format: a block's lines are the same in text 0.0.4 and OpenMetrics (one
 * sample name, the same labels and numbers), and what a format writes otherwise is
 * recorded as values, which then differ: a histogram's {@code _count} and {@code _sum}
 * where the sum is NaN, and the {@code _created} lines OpenMetrics has inline. Blocks
 * with exemplars are neither recorded nor copied where exemplars are written. A record
 * holds 8 bytes per value, so records are reused: when its body is released, a record
 * goes back to the {@link Pool} of the renderer that wrote it.
 *
 * @author leanscrape
 */
final class BlockRecord implements RenderRecord {

	private final Pool pool;

	/** Each block's family. */
	@Nullable Family[] families = new Family[64];

	/** Each block's series: the plan's array for its family. */
	Series[] @Nullable [] series = new Series[64][];

	/** Where in that array each block starts. */
	int[] froms = new int[64];

	/** Where in that array each block ends. */
	int[] tos = new int[64];

	/** Where each block's bytes start in the body. */
	long[] starts = new long[64];

	/** Where each block's bytes end in the body. */
	long[] ends = new long[64];

	/** The sample lines in each block. */
	int[] lines = new int[64];

	/** Where each block's values end in {@link #values}; the next block's start there. */
	int[] valueEnds = new int[64];

	/** The values read for every block, one after the other, as raw bits. */
	long[] values = new long[1024];

	int blockCount;

	int valueCount;

	private BlockRecord(Pool pool) {
		this.pool = pool;
	}

	/**
	 * Return whether this record describes a body that a renderer owning a pool wrote.
	 * @param pool the renderer's pool
	 * @return {@code true} when its blocks can be copied into that renderer's bodies
	 */
	boolean isOf(Pool pool) {
		return this.pool == pool;
	}

	/**
	 * Add a value of the block being written.
	 * @param bits the value's raw bits
	 */
	void addValue(long bits) {
		if (this.valueCount == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.values.length * 2);
		}
		this.values[this.valueCount++] = bits;
	}

	/**
	 * Close a block whose values were added.
	 * @param family its family
	 * @param series the plan's array of the family's series
	 * @param from where in it the block starts
	 * @param to where in it the block ends
	 * @param start where the block's bytes start in the body
	 * @param end where they end
	 * @param lineCount the sample lines in the block
	 */
	void addBlock(Family family, Series[] series, int from, int to, long start, long end, int lineCount) {
		int block = this.blockCount;
		if (block == this.starts.length) {
			int larger = block * 2;
			this.families = Arrays.copyOf(this.families, larger);
			this.series = Arrays.copyOf(this.series, larger);
			this.froms = Arrays.copyOf(this.froms, larger);
			this.tos = Arrays.copyOf(this.tos, larger);
			this.starts = Arrays.copyOf(this.starts, larger);
			this.ends = Arrays.copyOf(this.ends, larger);
			this.lines = Arrays.copyOf(this.lines, larger);
			this.valueEnds = Arrays.copyOf(this.valueEnds, larger);
		}
		this.families[block] = family;
		this.series[block] = series;
		this.froms[block] = from;
		this.tos[block] = to;
		this.starts[block] = start;
		this.ends[block] = end;
		this.lines[block] = lineCount;
		this.valueEnds[block] = this.valueCount;
		this.blockCount = block + 1;
	}

	/**
	 * Return where a block's values start in {@link #values}.
	 * @param block the block
	 * @return the index of its first value
	 */
	int valueStart(int block) {
		return (block == 0) ? 0 : this.valueEnds[block - 1];
	}

	@Override
	public void bodyReleased() {
		this.pool.giveBack(this);
	}

	/**
	 * The records of one renderer: a few are enough, one per kind of body kept to compare
	 * the next with and one per rendering in flight.
	 */
	static final class Pool {

		private static final int MAX_IDLE = 4;

		private final ArrayDeque<BlockRecord> idle = new ArrayDeque<>();

		/**
		 * Take an empty record for a rendering.
		 * @return the record
		 */
		BlockRecord take() {
			BlockRecord record;
			synchronized (this.idle) {
				record = this.idle.pollFirst();
			}
			if (record == null) {
				record = new BlockRecord(this);
			}
			return record;
		}

		private void giveBack(BlockRecord record) {
			// Its references to families and series keep nothing alive that the plan
			// does not, except until it is reused; clear them all the same.
			Arrays.fill(record.families, 0, record.blockCount, null);
			Arrays.fill(record.series, 0, record.blockCount, null);
			record.blockCount = 0;
			record.valueCount = 0;
			synchronized (this.idle) {
				if (this.idle.size() < MAX_IDLE) {
					this.idle.addFirst(record);
				}
			}
		}

	}

}
