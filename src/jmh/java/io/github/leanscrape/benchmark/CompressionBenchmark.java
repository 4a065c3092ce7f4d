package io.github.leanscrape.benchmark;

import java.util.concurrent.TimeUnit;

import com.github.luben.zstd.ZstdCompressCtx;
import io.airlift.compress.zstd.ZstdCompressor;
import io.github.leanscrape.exposition.BodyEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.GzipEncoder;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.ZstdEncoder;
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
		switch (this.codec) {
			case "gzip-1" -> this.gzip = new GzipEncoder(this.pool, 1);
			case "gzip-6" -> this.gzip = new GzipEncoder(this.pool, 6);
			case "zstd-1" -> this.zstd = new ZstdEncoder(this.pool, 1);
			case "zstd-3" -> this.zstd = new ZstdEncoder(this.pool, 3);
			case "zstd-jni-1" -> this.zstdJni = new ZstdCompressCtx().setLevel(1);
			case "aircompressor" -> this.aircompressor = new ZstdCompressor();
			default -> throw new IllegalArgumentException("Unknown codec '" + this.codec + "'");
		}
		System.out.println("compressed: codec=" + this.codec + " format=" + this.format + " series=" + this.seriesCount
				+ " bytes=" + compress() + " of " + this.bytes.length);
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
			PooledBody encoded = encoder.encode(plain, plain.kind().encoded(encoder.coding()), this.bytes.length / 8);
			long length = encoded.length();
			encoded.release();
			return length;
		}
		if (this.zstdJni != null) {
			return this.zstdJni.compressByteArray(this.target, 0, this.target.length, this.bytes, 0, this.bytes.length);
		}
		return ScrapeState.nonNull(this.aircompressor)
			.compress(this.bytes, 0, this.bytes.length, this.target, 0, this.target.length);
	}

}
