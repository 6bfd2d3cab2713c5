package dev.snowid.spring.autoconfigure.web;

import dev.snowid.protocol.RetryAfter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Spring MVC: answers a malformed {@link dev.snowid.SnowflakeId} parameter (400) and a refused ID
 * (503) with {@link IdAnswer}'s JSON; Spring's own handling would give a bare 400 and a 500.
 * Ordered before Spring MVC's resolvers; any other exception it leaves to them.
 */
public final class IdAnswerMvcResolver implements HandlerExceptionResolver, Ordered {

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler, Exception failure) {
        IdAnswer answer = IdAnswer.to(failure);
        if (answer == null || response.isCommitted()) {
            return null;
        }
        try {
            response.setStatus(answer.status());
            if (answer.retryAfterSeconds() > 0) {
                response.setHeader(RetryAfter.HEADER, Long.toString(answer.retryAfterSeconds()));
            }
            response.setContentType("application/json");
            response.getOutputStream().write(answer.json());
            return new ModelAndView(); // empty: the answer is written
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1; // after Boot's DefaultErrorAttributes, which only records the error
    }
}
