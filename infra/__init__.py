"""Infrastructure helpers: throwaway test services and deployment configs."""
