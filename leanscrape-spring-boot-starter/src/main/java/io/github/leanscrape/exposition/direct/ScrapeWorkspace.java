package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.prometheus.metrics.model.snapshots.Exemplar;
import org.jspecify.annotations.Nullable;

/**
 * Room that the writers of one scrape reuse from family to family, so that a scrape
 * allocates it once rather than per series: blocks of values read ahead, the values of
 * one summary or histogram, and for protobuf a buffer that holds a family until its size
 * is known.
 *
 * @author leanscrape
 */
final class ScrapeWorkspace implements AutoCloseable {

	/**
	 * How many counter or gauge values a scrape reads ahead of writing them: enough for
	 * the reads to overlap, little enough to stay in the fastest cache.
	 */
	static final int VALUE_BLOCK = 64;

	final double[] values = new double[VALUE_BLOCK];

	/**
	 * The bytes read by {@link #touchLabels}, summed only to give the reads a use, which
	 * keeps HotSpot's compilers from dropping them (a closed-world compiler that drops
	 * fields nobody reads may drop them: the output is the same, only slower).
	 */
	private int touchedLabels;

	final SummaryValues summary = new SummaryValues();

	final HistogramValues histogram = new HistogramValues();

	/** How exemplars are read, or {@code null} when the scrape writes none. */
	final @Nullable ExemplarScrape exemplars;

	/** Whether a text scrape writes {@code _created} samples. */
	final boolean createdLines;

	/**
	 * Copies what the last body of the scrape's kind holds unchanged, and notes the
	 * blocks for the next; {@code null} for protobuf, whose writers copy nothing.
	 */
	final @Nullable BlockCopier blocks;

	/** The counts of a gauge histogram's series, for text 0.0.4. */
	long[] counts = new long[0];

	/** The sums of a gauge histogram's series, for text 0.0.4. */
	double[] sums = new double[0];

	/** One series' labels encoded for protobuf. */
	byte[] labels = new byte[256];

	/** The exemplar of each bucket of one histogram, for protobuf. */
	@Nullable Exemplar[] bucketExemplars = new Exemplar[16];

	/** The size of each of those exemplars' messages, 0 where there is none. */
	int[] bucketExemplarSizes = new int[16];

	private final ChunkedOutput out;

	private @Nullable ChunkedOutput family;

	/**
	 * Create the workspace of one scrape.
	 * @param out the scrape's output, whose pool lends the protobuf family buffer
	 * @param exemplars how exemplars are read, or {@code null} when none are written
	 * @param createdLines whether a text scrape writes {@code _created} samples
	 * @param blocks copies unchanged blocks of a text scrape, or {@code null}
	 */
	ScrapeWorkspace(ChunkedOutput out, @Nullable ExemplarScrape exemplars, boolean createdLines,
			@Nullable BlockCopier blocks) {
		this.out = out;
		this.exemplars = exemplars;
		this.createdLines = createdLines;
		this.blocks = blocks;
	}

	/**
	 * Return an empty buffer from the output's pool for one family's metrics, written
	 * before the family's size is known.
	 * @return the buffer, emptied
	 */
	ChunkedOutput familyBuffer() {
		ChunkedOutput family = this.family;
		if (family == null) {
			family = this.out.workingBuffer();
			this.family = family;
		}
		return family;
	}

	/**
	 * Make room for the exemplars of a histogram's buckets.
	 * @param buckets how many buckets
	 */
	void ensureBuckets(int buckets) {
		if (this.bucketExemplars.length < buckets) {
			this.bucketExemplars = new Exemplar[buckets];
			this.bucketExemplarSizes = new int[buckets];
		}
	}

	/**
	 * Make room for the totals of a gauge histogram's series.
	 * @param series how many series
	 */
	void ensureTotals(int series) {
		if (this.counts.length < series) {
			this.counts = new long[series];
			this.sums = new double[series];
		}
	}

	/**
	 * Encode a series' labels for protobuf into {@link #labels}, growing it first if it
	 * could be too short.
	 * @param text the labels as the text formats write them
	 * @return the bytes encoded
	 */
	int encodeLabels(byte[] text) {
		int maxSize = ProtobufLabels.maxSize(text);
		if (this.labels.length < maxSize) {
			this.labels = new byte[Math.max(maxSize, 2 * this.labels.length)];
		}
		return ProtobufLabels.encode(text, this.labels);
	}

	/**
	 * Give the family buffer's chunks back to the pool.
	 */
	@Override
	public void close() {
		if (this.family != null) {
			this.family.discard();
		}
	}

	/**
	 * Read the first and the last cache line of a series' encoded labels, in the loop
	 * that reads a block of values ahead of writing them, so that these reads too overlap
	 * rather than each stalling the copy of its line: a scrape's labels are spread over
	 * the heap and, with a scrape every 10 to 30 seconds, rarely in the CPU's caches.
	 * @param labels the encoded labels
	 */
	void touchLabels(byte[] labels) {
		int length = labels.length;
		if (length > 0) {
			this.touchedLabels += labels[length - 1];
		}
	}

}
