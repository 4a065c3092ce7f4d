package io.github.leanscrape.benchmark;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import com.github.luben.zstd.ZstdCompressCtx;
import io.airlift.compress.zstd.ZstdCompressor;
import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * What compressing one scrape costs, per codec, on the body the starter renders for a
 * {@link SyntheticRegistry}: the starter's encoders ({@code gzip-1}, {@code gzip-6},
 * {@code zstd-1}, {@code zstd-3}: pooled chunks in, pooled chunks out, as a scrape runs
 * them) and, to choose the zstd library by measurement, the one-shot compressors of the
 * two candidates over the same bytes in one array ({@code zstd-jni-1}: zstd-jni, the
 * native library; {@code aircompressor}: airlift's pure-Java zstd, which has no levels).
 * Time per scrape is the CPU a scrape's compression costs (one thread); the compressed
 * size of each codec is printed once per trial.
 * <p>
 * To choose how the starter drives deflate, {@code deflate-L-INk-OUTk} (and
 * {@code deflate-L-INk-OUTk-filtered} or {@code -huffman} for the other strategies)
 * compresses the same bytes with the JDK's {@link Deflater} alone, as {@link GzipEncoder}
 * does (raw deflate, CRC-32, a reused deflater): at level {@code L}, given {@code IN} KiB
 * of input at a time and draining {@code OUT} KiB of output at a time into a window that
 * is copied out; {@code gzip-L} is the starter's encoder at any level.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class CompressionBenchmark {

	private static final int GZIP_HEADER_AND_TRAILER = 10 + 8;

	/**
	 * The codecs {@link #codec} names: sizes in KiB, at least 1.
	 */
	private static final Pattern CODEC = Pattern.compile("gzip-(?<gzip>[1-9])|zstd-(?<zstd>[0-9]+)"
			+ "|zstd-jni-(?<jni>[0-9]+)|aircompressor"
			+ "|deflate-(?<deflate>[1-9])-(?<in>[1-9][0-9]*)k-(?<out>[1-9][0-9]*)k(?:-(?<strategy>filtered|huffman))?");

	/**
	 * How many series the registry has.
	 */
	@Param({ "100000" })
	public int seriesCount = 100_000;

	/**
	 * The format of the body: {@code text}, {@code openmetrics} or {@code protobuf}.
	 */
	@Param({ "text", "protobuf" })
	public String format = "text";

	/**
	 * The codec and its level.
	 */
	@Param({ "gzip-1", "gzip-6", "zstd-1", "zstd-3", "zstd-jni-1", "aircompressor" })
	public String codec = "gzip-1";

	private final ChunkPool pool = new ChunkPool(64 * 1024, 256L * 1024 * 1024);

	private @Nullable PooledBody body;

	private byte[] bytes = new byte[0];

	private byte[] target = new byte[0];

	private @Nullable GzipEncoder gzip;

	private @Nullable ZstdEncoder zstd;

	private @Nullable ZstdCompressCtx zstdJni;

	private @Nullable ZstdCompressor aircompressor;

	private @Nullable Deflater deflater;

	private final CRC32 crc = new CRC32();

	private int deflateInput;

	private byte[] deflateWindow = new byte[0];

	/**
	 * Render the body once and set up the codec.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		SyntheticRegistry registry = SyntheticRegistry.build(this.seriesCount);
		LeanscrapeStarter starter = LeanscrapeStarter.create(registry.meterRegistry(), PrometheusConfig.DEFAULT);
		PrometheusOutputFormat outputFormat = ScrapeState.outputFormat(this.format);
		PooledBody rendered = starter.scraper().renderNow(outputFormat, null);
		this.bytes = rendered.toByteArray();
		rendered.release();
		ChunkedOutput copy = new ChunkedOutput(this.pool, BodyKind.of(outputFormat, null), this.bytes.length);
		copy.write(this.bytes);
		this.body = copy.toBody();
		this.target = new byte[this.bytes.length + this.bytes.length / 100 + 1024];
		Matcher codec = CODEC.matcher(this.codec);
		if (!codec.matches()) {
			throw new IllegalArgumentException("Unknown codec '" + this.codec + "'");
		}
		if (codec.group("gzip") != null) {
			// The same body every time: reusing its segments would compress nothing.
			this.gzip = new GzipEncoder(this.pool, Integer.parseInt(codec.group("gzip")));
		}
		else if (codec.group("zstd") != null) {
			this.zstd = new ZstdEncoder(this.pool, Integer.parseInt(codec.group("zstd")), false);
		}
		else if (codec.group("jni") != null) {
			this.zstdJni = new ZstdCompressCtx().setLevel(Integer.parseInt(codec.group("jni")));
		}
		else if (codec.group("deflate") != null) {
			setUpDeflater(codec);
		}
		else {
			this.aircompressor = new ZstdCompressor();
		}
		System.out.println("compressed: codec=" + this.codec + " format=" + this.format + " series=" + this.seriesCount
				+ " bytes=" + compress() + " of " + this.bytes.length);
	}

	private void setUpDeflater(Matcher codec) {
		Deflater deflater = new Deflater(Integer.parseInt(codec.group("deflate")), true);
		String strategy = codec.group("strategy");
		if (strategy != null) {
			deflater.setStrategy(strategy.equals("filtered") ? Deflater.FILTERED : Deflater.HUFFMAN_ONLY);
		}
		this.deflater = deflater;
		this.deflateInput = Integer.parseInt(codec.group("in")) * 1024;
		this.deflateWindow = new byte[Integer.parseInt(codec.group("out")) * 1024];
	}

	/**
	 * Give the body back and free the native compressor.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.body != null) {
			this.body.release();
		}
		if (this.zstdJni != null) {
			this.zstdJni.close();
		}
		if (this.deflater != null) {
			this.deflater.end();
		}
	}

	/**
	 * Compress the scrape's body once.
	 * @return the compressed size
	 */
	@Benchmark
	public long compress() {
		BodyEncoder encoder = (this.gzip != null) ? this.gzip : this.zstd;
		if (encoder != null) {
			PooledBody plain = ScrapeState.nonNull(this.body);
			PooledBody encoded = encoder
				.encode(plain, plain.kind().encoded(encoder.coding()), this.bytes.length / 8, false, null, null)
				.body();
			long length = encoded.length();
			encoded.release();
			return length;
		}
		if (this.deflater != null) {
			return deflate(this.deflater);
		}
		if (this.zstdJni != null) {
			return this.zstdJni.compressByteArray(this.target, 0, this.target.length, this.bytes, 0, this.bytes.length);
		}
		return ScrapeState.nonNull(this.aircompressor)
			.compress(this.bytes, 0, this.bytes.length, this.target, 0, this.target.length);
	}

	private int deflate(Deflater deflater) {
		deflater.reset();
		this.crc.reset();
		byte[] window = this.deflateWindow;
		int written = 0;
		for (int offset = 0; offset < this.bytes.length; offset += this.deflateInput) {
			int length = Math.min(this.deflateInput, this.bytes.length - offset);
			this.crc.update(this.bytes, offset, length);
			deflater.setInput(this.bytes, offset, length);
			while (!deflater.needsInput()) {
				written = copyOut(window, deflater.deflate(window, 0, window.length, Deflater.NO_FLUSH), written);
			}
		}
		deflater.finish();
		while (!deflater.finished()) {
			written = copyOut(window, deflater.deflate(window, 0, window.length, Deflater.NO_FLUSH), written);
		}
		// The size of the gzip body it would make: header, deflate stream, CRC-32 and
		// size.
		return GZIP_HEADER_AND_TRAILER + written;
	}

	private int copyOut(byte[] window, int length, int written) {
		System.arraycopy(window, 0, this.target, written, length);
		return written + length;
	}

}
