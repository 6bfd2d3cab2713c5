package dev.snowid.spring.autoconfigure.web;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Spring WebFlux: answers a malformed {@link dev.snowid.SnowflakeId} parameter with {@link InvalidIdAnswer}'s
 * 400. Ordered before Spring Boot's error handler (order -1); any other exception it passes on.
 */
public final class InvalidIdWebFluxHandler implements WebExceptionHandler, Ordered {

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        InvalidIdAnswer answer = InvalidIdAnswer.to(failure);
        if (answer == null || exchange.getResponse().isCommitted()) {
            return Mono.error(failure);
        }
        exchange.getResponse().setStatusCode(HttpStatus.BAD_REQUEST);
        exchange.getResponse().getHeaders().setContentType(MediaType.APPLICATION_JSON);
        DataBuffer body = exchange.getResponse().bufferFactory().wrap(answer.json());
        return exchange.getResponse().writeWith(Mono.just(body));
    }

    @Override
    public int getOrder() {
        return -2;
    }
}
