package io.github.leanscrape.recording.reactive;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.ObservationBypassCheck;
import io.github.leanscrape.recording.ServerRequestMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * Decorates the HTTP handler built by Spring WebFlux's {@code WebHttpHandlerBuilder} so
 * that {@code http.server.requests} is recorded without an observation where one would
 * reach nothing but the starter's meter handler ({@link ObservationBypassCheck}, decided
 * once). Spring observes requests in its {@link HttpWebHandlerAdapter}, so the adapter is
 * made again, with all its settings, around {@link ServerRequestRecordingWebHandler} and,
 * when bypassing, a {@link BypassedObservationRegistry}. An unknown handler is left as
 * built, logged at INFO.
 *
 * @author leanscrape
 */
public final class ReactiveServerRequestRecording implements Function<HttpHandler, HttpHandler> {

	/**
	 * The starter's count of the requests recorded, tagged with the path they took
	 * ({@code path} = {@code direct} or {@code observation}); the same meter as Spring
	 * MVC's.
	 */
	public static final String REQUESTS_METER = ServerRequestMeters.REQUESTS_METER;

	/**
	 * The class of Spring's HTTP handler adapter, whose fields are listed.
	 */
	static final String ADAPTER = "org.springframework.web.server.adapter.HttpWebHandlerAdapter";

	/**
	 * The instance fields of Spring Framework 7.0's adapter: all are set through public
	 * setters, and copied.
	 */
	private static final Set<String> ADAPTER_FIELDS = Set.of("sessionManager", "codecConfigurer",
			"localeContextResolver", "forwardedHeaderTransformer", "observationRegistry", "observationConvention",
			"defaultHtmlEscape", "applicationContext", "enableLoggingRequestDetails");

	private static final Log logger = LogFactory.getLog(ReactiveServerRequestRecording.class);

	private final CachingMeterObservationHandler handler;

	private final MeterRegistry meterRegistry;

	private final boolean longTaskTimers;

	private final int maxCachedMeters;

	/** Requests recorded without Micrometer's observation. */
	private final LongAdder directRequests = new LongAdder();

	/** Requests recorded through Micrometer's observation. */
	private final LongAdder observedRequests = new LongAdder();

	/**
	 * Create a new instance.
	 * @param handler the starter's meter handler, which must be the only one an
	 * observation would reach
	 * @param meterRegistry the registry to record into
	 * @param longTaskTimers whether to record the {@code .active} long task timer
	 * @param maxCachedMeters the most meters to cache
	 */
	public ReactiveServerRequestRecording(CachingMeterObservationHandler handler, MeterRegistry meterRegistry,
			boolean longTaskTimers, int maxCachedMeters) {
		this(handler, meterRegistry, longTaskTimers, maxCachedMeters, true);
	}

	/**
	 * Create a new instance.
	 * @param handler the starter's meter handler, which must be the only one an
	 * observation would reach
	 * @param meterRegistry the registry to record into
	 * @param longTaskTimers whether to record the {@code .active} long task timer
	 * @param maxCachedMeters the most meters to cache
	 * @param countRequests whether to count the requests recorded by each path in
	 * {@value #REQUESTS_METER}, one of the starter's own meters
	 */
	public ReactiveServerRequestRecording(CachingMeterObservationHandler handler, MeterRegistry meterRegistry,
			boolean longTaskTimers, int maxCachedMeters, boolean countRequests) {
		this.handler = handler;
		this.meterRegistry = meterRegistry;
		this.longTaskTimers = longTaskTimers;
		this.maxCachedMeters = maxCachedMeters;
		if (countRequests) {
			ServerRequestMeters.registerRequestsCounter(meterRegistry, "direct", this.directRequests);
			ServerRequestMeters.registerRequestsCounter(meterRegistry, "observation", this.observedRequests);
		}
	}

	/**
	 * Make Spring's adapter again around the starter's web handler, or return the handler
	 * unchanged.
	 * @param httpHandler the handler Spring built
	 * @return the adapter made again, or the handler given
	 */
	@Override
	public HttpHandler apply(HttpHandler httpHandler) {
		String unknown = whyNotRewrapped(httpHandler);
		if (unknown != null) {
			logger.info("Recording HTTP server requests as Spring WebFlux's HTTP handler does: " + unknown);
			return httpHandler;
		}
		HttpWebHandlerAdapter adapter = (HttpWebHandlerAdapter) httpHandler;
		ObservationRegistry registry = adapter.getObservationRegistry();
		ServerRequestObservationConvention convention = adapter.getObservationConvention();
		String reason = ObservationBypassCheck.whyNot(registry, this.handler, convention);
		if (reason == null) {
			logger.info("Recording " + convention.getName() + " without observations");
		}
		else {
			logger.info("Recording " + convention.getName() + " through observations: " + reason);
		}
		boolean bypassing = (reason == null);
		ServerRequestRecordingWebHandler webHandler = new ServerRequestRecordingWebHandler(adapter.getDelegate(),
				registry, convention, this.handler, this.meterRegistry, this.longTaskTimers, this.maxCachedMeters,
				bypassing, this.directRequests, this.observedRequests);
		HttpWebHandlerAdapter rewrapped = new HttpWebHandlerAdapter(webHandler);
		rewrapped.setSessionManager(adapter.getSessionManager());
		rewrapped.setCodecConfigurer(adapter.getCodecConfigurer());
		rewrapped.setLocaleContextResolver(adapter.getLocaleContextResolver());
		rewrapped.setForwardedHeaderTransformer(adapter.getForwardedHeaderTransformer());
		rewrapped.setObservationRegistry(bypassing ? new BypassedObservationRegistry(registry) : registry);
		rewrapped.setObservationConvention(convention);
		Boolean defaultHtmlEscape = adapter.getDefaultHtmlEscape();
		if (defaultHtmlEscape != null) {
			rewrapped.setDefaultHtmlEscape(defaultHtmlEscape);
		}
		ApplicationContext applicationContext = adapter.getApplicationContext();
		if (applicationContext != null) {
			rewrapped.setApplicationContext(applicationContext);
		}
		rewrapped.afterPropertiesSet();
		return rewrapped;
	}

	/**
	 * Return why a handler cannot be made again around the starter's web handler.
	 * @param httpHandler the handler Spring built
	 * @return the reason, or {@code null} when it is Spring's adapter, as the starter
	 * knows it
	 */
	static @Nullable String whyNotRewrapped(HttpHandler httpHandler) {
		if (httpHandler.getClass() != HttpWebHandlerAdapter.class) {
			return "the HTTP handler is a " + httpHandler.getClass().getName()
					+ ", not Spring's HttpWebHandlerAdapter (an HTTP handler decorator ran first)";
		}
		Field[] fields;
		try {
			fields = HttpWebHandlerAdapter.class.getDeclaredFields();
		}
		catch (RuntimeException | LinkageError ex) {
			return "the fields of HttpWebHandlerAdapter cannot be listed (" + ex + ")";
		}
		int instanceFields = 0;
		for (Field field : fields) {
			if (!Modifier.isStatic(field.getModifiers())) {
				instanceFields++;
				if (!ADAPTER_FIELDS.contains(field.getName())) {
					return "HttpWebHandlerAdapter has a setting the starter does not know (" + field.getName() + ")";
				}
			}
		}
		if (instanceFields == 0) {
			// A native image without the reflection hint lists none: nothing was checked.
			return "the fields of HttpWebHandlerAdapter cannot be listed (no reflection metadata)";
		}
		@Nullable ServerRequestObservationConvention convention = ((HttpWebHandlerAdapter) httpHandler)
			.getObservationConvention();
		if (convention == null) {
			// Not with Spring Framework 7.0, whose adapter always has one.
			return "the HTTP handler has no observation convention (global conventions would apply)";
		}
		return null;
	}

}
