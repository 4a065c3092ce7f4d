package io.github.leanscrape.recording;

import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code http.server.requests}-shaped observation (start and stop), recorded by
 * Micrometer's default handler or by the {@link CachingMeterObservationHandler}, into a
 * Prometheus meter registry.
 * <ul>
 * <li>{@code handler}: a fresh context with the five key values Spring's
 * {@code DefaultServerRequestObservationConvention} gives (fresh {@link KeyValue}s for
 * method, status and uri, as the convention makes them per request), then the handler's
 * {@code onStart} and {@code onStop}. With {@code handler=none} it is only the context:
 * subtract it to get the handler's own cost.</li>
 * <li>{@code observation}: the same through an {@link ObservationRegistry}, the way a
 * request is observed: the registry's convention, key value copies and handler composite,
 * as Spring Boot registers the meter handlers (one first-matching composite, the
 * starter's handler before the default one). With {@code handler=none} the registry has
 * one handler that does nothing.</li>
 * </ul>
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes per observation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class MeterObservationHandlerBenchmark {

	private static final String NAME = "http.server.requests";

	private static final KeyValue EXCEPTION_NONE = KeyValue.of("exception", KeyValue.NONE_VALUE);

	private static final KeyValue OUTCOME_SUCCESS = KeyValue.of("outcome", "SUCCESS");

	private static final String[] URIS = { "/hello", "/items/{id}", "/items/{id}/parts/{part}", "/orders" };

	@Param({ "none", "default", "leanscrape" })
	public String handler;

	@Param({ "true", "false" })
	public boolean longTaskTimer;

	private ObservationHandler<Observation.Context> meterHandler;

	private ObservationRegistry observationRegistry;

	private final RequestConvention convention = new RequestConvention();

	private int next;

	@Setup
	public void setUp() {
		PrometheusMeterRegistry meterRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		IgnoredMeters[] ignored = this.longTaskTimer ? new IgnoredMeters[0]
				: new IgnoredMeters[] { IgnoredMeters.LONG_TASK_TIMER };
		DefaultMeterObservationHandler defaultHandler = new DefaultMeterObservationHandler(meterRegistry, ignored);
		this.observationRegistry = ObservationRegistry.create();
		switch (this.handler) {
			case "none" -> {
				this.meterHandler = new NoOpHandler();
				this.observationRegistry.observationConfig().observationHandler(this.meterHandler);
			}
			case "default" -> {
				this.meterHandler = defaultHandler;
				this.observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(defaultHandler));
			}
			case "leanscrape" -> {
				CachingMeterObservationHandler caching = new CachingMeterObservationHandler(meterRegistry, 2000,
						ignored);
				this.meterHandler = caching;
				this.observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(caching, defaultHandler));
			}
			default -> throw new IllegalArgumentException(this.handler);
		}
	}

	@Benchmark
	public Observation.Context handler() {
		String uri = URIS[this.next++ & 3];
		Observation.Context context = new Observation.Context();
		context.setName(NAME);
		context.addLowCardinalityKeyValue(EXCEPTION_NONE);
		context.addLowCardinalityKeyValue(KeyValue.of("method", "GET"));
		context.addLowCardinalityKeyValue(OUTCOME_SUCCESS);
		context.addLowCardinalityKeyValue(KeyValue.of("status", Integer.toString(200)));
		context.addLowCardinalityKeyValue(KeyValue.of("uri", uri));
		this.meterHandler.onStart(context);
		this.meterHandler.onStop(context);
		return context;
	}

	@Benchmark
	public Observation observation() {
		RequestContext context = new RequestContext(URIS[this.next++ & 3]);
		Observation observation = Observation.createNotStarted(this.convention, () -> context,
				this.observationRegistry);
		observation.start();
		observation.stop();
		return observation;
	}

	static final class RequestContext extends Observation.Context {

		final String uri;

		RequestContext(String uri) {
			this.uri = uri;
		}

	}

	/**
	 * Key values shaped as Spring's {@code DefaultServerRequestObservationConvention}
	 * makes them: sorted, constants where it has constants.
	 */
	static final class RequestConvention implements ObservationConvention<RequestContext> {

		@Override
		public KeyValues getLowCardinalityKeyValues(RequestContext context) {
			return KeyValues.of(EXCEPTION_NONE, KeyValue.of("method", "GET"), OUTCOME_SUCCESS,
					KeyValue.of("status", Integer.toString(200)), KeyValue.of("uri", context.uri));
		}

		@Override
		public String getName() {
			return NAME;
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof RequestContext;
		}

	}

	static final class NoOpHandler implements ObservationHandler<Observation.Context> {

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
