# A Rails 6.1 API-only app in one file, with what `rails new --api` and `rails generate scaffold
# Todo title:string completed:boolean` give: `resources :todos` (paths without a trailing slash),
# integer ids, ActiveRecord on SQLite with timestamps, the scaffold's controller (201 with the
# record on create, 204 on destroy, the record's errors with a 422 when it is invalid) and JSON
# params wrapped under `todo`. The database is Rails' DATABASE_URL (a SQLite file); the schema is
# made on start.
# Run: DATABASE_URL=sqlite3:/tmp/todos.sqlite3 rackup -s webrick -o 127.0.0.1 -p PORT (from here).
require "rails"
require "active_record/railtie"
require "action_controller/railtie"

class TodosApp < Rails::Application
  config.root = __dir__
  config.api_only = true
  config.eager_load = false
  config.secret_key_base = "not-a-secret: this app only serves tests on loopback"
  config.logger = Logger.new($stdout)
  config.log_level = :warn
  # A development app allows any IP as the host; say so rather than depend on the environment.
  config.hosts.clear
end

# What config/initializers/wrap_parameters.rb of a new 6.1 app does: `{ "title": "x" }` reaches
# the controller as params[:todo][:title] too.
ActiveSupport.on_load(:action_controller) { wrap_parameters format: [:json] }

TodosApp.initialize!

ActiveRecord::Schema.verbose = false
ActiveRecord::Schema.define do
  create_table :todos, force: true do |t|
    t.string :title
    t.boolean :completed, default: false, null: false
    t.timestamps
  end
end

class ApplicationRecord < ActiveRecord::Base
  self.abstract_class = true
end

class Todo < ApplicationRecord
  validates :title, presence: true
end

class ApplicationController < ActionController::API
end

# The scaffold's controller, as `rails generate scaffold` writes it for an API app.
class TodosController < ApplicationController
  before_action :set_todo, only: [:show, :update, :destroy]

  # GET /todos
  def index
    @todos = Todo.all
    render json: @todos
  end

  # GET /todos/1
  def show
    render json: @todo
  end

  # POST /todos
  def create
    @todo = Todo.new(todo_params)

    if @todo.save
      render json: @todo, status: :created, location: @todo
    else
      render json: @todo.errors, status: :unprocessable_entity
    end
  end

  # PATCH/PUT /todos/1
  def update
    if @todo.update(todo_params)
      render json: @todo
    else
      render json: @todo.errors, status: :unprocessable_entity
    end
  end

  # DELETE /todos/1
  def destroy
    @todo.destroy
  end

  private

  def set_todo
    @todo = Todo.find(params[:id])
  end

  def todo_params
    params.require(:todo).permit(:title, :completed)
  end
end

TodosApp.routes.draw do
  resources :todos
end

run TodosApp
