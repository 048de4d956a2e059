"""Settings as DRF's quickstart writes them, with DEBUG off (APPEND_SLASH then redirects with 301)."""
import os

SECRET_KEY = 'test-only-not-secret'
DEBUG = False
ALLOWED_HOSTS = ['127.0.0.1', 'localhost']
ROOT_URLCONF = 'urls'
USE_TZ = True
TIME_ZONE = 'UTC'
INSTALLED_APPS = [
    'django.contrib.auth',
    'django.contrib.contenttypes',
    'rest_framework',
    'rest_framework.authtoken',
    'django_filters',
    'todos',
]
MIDDLEWARE = [
    'django.middleware.common.CommonMiddleware',
    # ETag and 304 for GETs, as many deployments add: a revalidation asks with If-None-Match.
    'django.middleware.http.ConditionalGetMiddleware',
    'todos.cors.AllowTestOrigins',
]
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': os.environ['DRF_DB']}}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
REST_FRAMEWORK = {
    'DEFAULT_AUTHENTICATION_CLASSES': ['rest_framework.authentication.TokenAuthentication'],
    'DEFAULT_PERMISSION_CLASSES': ['rest_framework.permissions.IsAuthenticatedOrReadOnly'],
    'DEFAULT_PAGINATION_CLASS': 'rest_framework.pagination.PageNumberPagination',
    'PAGE_SIZE': 5,
    'DEFAULT_FILTER_BACKENDS': ['django_filters.rest_framework.DjangoFilterBackend'],
}
LOGGING = {'version': 1, 'disable_existing_loggers': True}
