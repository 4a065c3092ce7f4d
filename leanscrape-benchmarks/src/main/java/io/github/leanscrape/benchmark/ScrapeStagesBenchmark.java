package io.github.leanscrape.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The stages of a scrape, measured one at a time on the registry of {@link ScrapeState}:
 * where the time and the bytes of {@link ScrapeBenchmark} go.
 * <ul>
 * <li>{@link #collect}: {@code PrometheusRegistry.scrape()}, which both paths run
 * today;</li>
 * <li>{@link #bootWrite} and {@link #leanscrapeWrite}: client_java's writer on snapshots
 * collected beforehand, into a reused stream as Spring Boot's writer sees it, and into a
 * {@link ChunkedOutput} of pooled chunks as leanscrape's does;</li>
 * <li>{@link #bootHandOff} and {@link #leanscrapeHandOff}: what each path does with a
 * body's bytes besides producing them: Spring Boot's sized {@code ByteArrayOutputStream}
 * and its {@code toByteArray()} copy, against leanscrape's chunks handed over by
 * {@code toBody()}, written out and released.</li>
 * </ul>
 * For each path, collect + write + hand-off is about the whole scrape.
 *
 * @author leanscrape
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ScrapeStagesBenchmark {

	/**
	 * Spring Boot's endpoint adds this to the last body size to size the next buffer.
	 */
	private static final int BOOT_SCRAPE_SIZE_EXTRA = 1024;

	/**
	 * Collect: Micrometer's collector turns every meter into client_java snapshots,
	 * sorted by name and labels. Both paths start with it.
	 * @param state the registry
	 * @return the snapshots
	 */
	@Benchmark
	public MetricSnapshots collect(ScrapeState state) {
		return state.registry().prometheusRegistry().scrape();
	}

	/**
	 * Write, Spring Boot's way: client_java's writer for the format, on snapshots
	 * collected beforehand, into a stream that is reset rather than reallocated, so that
	 * only the writer's own allocation is counted.
	 * @param stage the snapshots and the stream
	 * @return the bytes written
	 * @throws IOException never: the stream does not fail
	 */
	@Benchmark
	public int bootWrite(StageState stage) throws IOException {
		ByteArrayOutputStream out = stage.reusedStream();
		out.reset();
		stage.writer().write(out, stage.snapshots());
		return out.size();
	}

	/**
	 * Write, leanscrape's way: the same writer into a {@link ChunkedOutput} sized by the
	 * starter's size hints, whose chunks go back to the pool afterwards.
	 * @param stage the snapshots and the starter's pool
	 * @return the bytes written
	 * @throws IOException never: the buffer does not fail
	 */
	@Benchmark
	public long leanscrapeWrite(StageState stage) throws IOException {
		LeanscrapeStarter starter = stage.starter();
		BodyKind kind = BodyKind.of(stage.format(), null);
		ChunkedOutput buffer = new ChunkedOutput(starter.pool(), kind, starter.sizeHints().expectedSize(kind));
		try {
			stage.writer().write(buffer, stage.snapshots());
			return buffer.size();
		}
		finally {
			buffer.discard();
		}
	}

	/**
	 * Hand-off, Spring Boot's way: a {@code ByteArrayOutputStream} of the last size plus
	 * 1 KiB receives the body (the writer's output, copied here from a finished body),
	 * and {@code toByteArray()} copies it once more for the response. Two body-sized
	 * arrays per scrape, humongous under G1 once larger than half a region.
	 * @param stage the body
	 * @return the response's array
	 */
	@Benchmark
	public byte[] bootHandOff(StageState stage) {
		byte[] body = stage.body();
		ByteArrayOutputStream out = new ByteArrayOutputStream(stage.bootNextSize);
		out.write(body, 0, body.length);
		byte[] content = out.toByteArray();
		stage.bootNextSize = content.length + BOOT_SCRAPE_SIZE_EXTRA;
		return content;
	}

	/**
	 * Hand-off, leanscrape's way: a {@link ChunkedOutput} of pooled chunks receives the
	 * body, {@code toBody()} hands the chunks over without a copy, the body is written to
	 * the sink chunk by chunk and released, its chunks back in the pool for the next
	 * scrape.
	 * @param stage the body and the starter's pool
	 * @return the bytes written to the sink so far
	 * @throws IOException never: the sink does not fail
	 */
	@Benchmark
	public long leanscrapeHandOff(StageState stage) throws IOException {
		LeanscrapeStarter starter = stage.starter();
		BodyKind kind = BodyKind.of(stage.format(), null);
		byte[] bytes = stage.body();
		ChunkedOutput buffer = new ChunkedOutput(starter.pool(), kind, starter.sizeHints().expectedSize(kind));
		buffer.write(bytes, 0, bytes.length);
		PooledBody body = buffer.toBody();
		starter.sizeHints().record(kind, body.length());
		try {
			body.writeTo(stage.sink);
		}
		finally {
			body.release();
		}
		return stage.sink.count();
	}

	/**
	 * What the write and hand-off stages start from, prepared once per trial: the
	 * snapshots of the registry, the finished body, client_java's writer for the format
	 * and a starter of its own. Kept apart from {@link ScrapeState} so that the
	 * whole-scrape benchmarks do not keep the snapshots alive.
	 */
	@State(Scope.Benchmark)
	public static class StageState {

		@Nullable MetricSnapshots snapshots;

		byte @Nullable [] body;

		@Nullable ExpositionFormatWriter writer;

		@Nullable PrometheusOutputFormat format;

		@Nullable LeanscrapeStarter starter;

		@Nullable ByteArrayOutputStream reusedStream;

		int bootNextSize;

		final CountingSink sink = new CountingSink();

		/**
		 * Prepare the inputs from the registry and endpoints of the trial.
		 * @param state the registry and endpoints
		 */
		@Setup(Level.Trial)
		public void setUp(ScrapeState state) {
			PrometheusOutputFormat format = state.outputFormat();
			ExpositionFormats formats = ExpositionFormats.init((state.exporterProperties() != null)
					? PrometheusPropertiesLoader.load(state.exporterProperties()) : PrometheusPropertiesLoader.load());
			byte[] body = state.bootEndpoint().scrape(format, null).getBody();
			if (body == null) {
				throw new IllegalStateException("No body");
			}
			this.format = format;
			this.writer = switch (format) {
				case CONTENT_TYPE_004 -> formats.getPrometheusTextFormatWriter();
				case CONTENT_TYPE_OPENMETRICS_100 -> formats.getOpenMetricsTextFormatWriter();
				case CONTENT_TYPE_PROTOBUF -> formats.getPrometheusProtobufWriter();
			};
			this.snapshots = state.registry().prometheusRegistry().scrape();
			this.body = body;
			this.bootNextSize = body.length + BOOT_SCRAPE_SIZE_EXTRA;
			this.reusedStream = new ByteArrayOutputStream(body.length + BOOT_SCRAPE_SIZE_EXTRA);
			this.starter = LeanscrapeStarter.create(state.registry().meterRegistry(), PrometheusConfig.DEFAULT,
					"leanscrape.reuse.enabled=false");
			this.starter.sizeHints().record(BodyKind.of(format, null), body.length);
		}

		/**
		 * Check that no body of the hand-off stage is still holding pooled chunks.
		 */
		@TearDown(Level.Trial)
		public void tearDown() {
			long inUse = (this.starter != null) ? this.starter.pool().chunksInUse() : 0;
			if (inUse != 0) {
				throw new IllegalStateException(inUse + " chunks were never given back to the pool");
			}
		}

		MetricSnapshots snapshots() {
			return ScrapeState.nonNull(this.snapshots);
		}

		byte[] body() {
			return ScrapeState.nonNull(this.body);
		}

		ExpositionFormatWriter writer() {
			return ScrapeState.nonNull(this.writer);
		}

		PrometheusOutputFormat format() {
			return ScrapeState.nonNull(this.format);
		}

		LeanscrapeStarter starter() {
			return ScrapeState.nonNull(this.starter);
		}

		ByteArrayOutputStream reusedStream() {
			return ScrapeState.nonNull(this.reusedStream);
		}

	}

}
